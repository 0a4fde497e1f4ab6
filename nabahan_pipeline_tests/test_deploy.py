"""deploy/: the image and the Helm chart cannot be built or installed here (no Docker engine, no
registry, no cluster), so their files are parsed and held to what the code reads: the code
location's module, the instance configuration of deploy/dagster.yaml, and every environment
variable of nabahan_pipeline/settings.py."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import dagster as dg
import pytest
import yaml
from dagster._config import process_config
from dagster._core.instance.config import dagster_instance_config_schema
from dagster_k8s import K8sRunLauncher
from dagster_postgres import PostgresEventLogStorage

from nabahan_pipeline import settings
from nabahan_pipeline_tests.commands import REPO

DEPLOY = REPO / "deploy"
MODULE = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["dagster"]["module_name"]
SECRETS = {setting.env for setting in settings.SETTINGS.values() if setting.secret}
# The PostgreSQL credentials the instance (not the pipeline) reads.
PG_VARIABLES = {"DAGSTER_PG_HOST", "DAGSTER_PG_PORT", "DAGSTER_PG_USER", "DAGSTER_PG_PASSWORD", "DAGSTER_PG_DB"}


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def documents(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, arguments in dockerfile():
        if instruction == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(arguments))
    return env


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def snake_keys(value: object) -> object:
    """Helm's camelCase keys as dagster.yaml's snake_case, all the way down."""
    if isinstance(value, dict):
        return {snake(key) if key != "applyLimitPerUniqueValue" else key: snake_keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [snake_keys(item) for item in value]
    return value


VALUES = load(DEPLOY / "helm" / "values.yaml")
INSTANCE = load(DEPLOY / "dagster.yaml")
(DEPLOYMENT,) = VALUES["dagster-user-deployments"]["deployments"]


def test_the_image_serves_the_code_location_with_the_instance_configuration():
    instructions = dockerfile()
    (cmd,) = [arguments for instruction, arguments in instructions if instruction == "CMD"]
    command = yaml.safe_load(cmd)  # the exec form is a JSON list
    assert command[:3] == ["dagster", "api", "grpc"] and command[command.index("-m") + 1] == MODULE
    assert any(instruction == "RUN" and '".[deploy]"' in arguments for instruction, arguments in instructions)
    env = dockerfile_env()
    copies = [shlex.split(arguments) for instruction, arguments in instructions if instruction == "COPY"]
    assert ["deploy/dagster.yaml", "${DAGSTER_HOME}/dagster.yaml"] in copies
    assert env["DAGSTER_HOME"] == VALUES["global"]["dagsterHome"], "the chart mounts the instance where the image has it"
    ours = {name for name in env if not name.startswith(("PYTHON", "PIP_"))}
    assert ours <= set(settings.ENVIRONMENT_VARIABLES), "the image sets no variable the code does not read"
    config_map = load(DEPLOY / "k8s" / "nabahan-env.yaml")["data"]
    assert env["NABAHAN_HOME"] == config_map["NABAHAN_HOME"] == DEPLOYMENT["volumeMounts"][0]["mountPath"]
    assert env["NABAHAN_CACHE_DIR"] == config_map["NABAHAN_CACHE_DIR"], "the databases built into the image are used"
    assert any(instruction == "USER" and arguments != "root" for instruction, arguments in instructions)


def test_the_helm_values_deploy_the_code_location_and_launch_runs_on_kubernetes():
    args = DEPLOYMENT["dagsterApiGrpcArgs"]
    assert args[args.index("-m") + 1] == MODULE
    assert DEPLOYMENT["includeConfigInLaunchedRuns"]["enabled"] is True
    launcher = VALUES["runLauncher"]
    assert launcher["type"] == "K8sRunLauncher" == INSTANCE["run_launcher"]["class"]
    k8s = launcher["config"]["k8sRunLauncher"]
    for key in ("envConfigMaps", "envSecrets"):
        names = [entry["name"] for entry in k8s[key]]
        assert names == [entry["name"] for entry in DEPLOYMENT[key]] == INSTANCE["run_launcher"]["config"][snake(key)]
    assert k8s["volumes"] == DEPLOYMENT["volumes"] and k8s["volumeMounts"] == DEPLOYMENT["volumeMounts"]
    claim = k8s["volumes"][0]["persistentVolumeClaim"]["claimName"]
    (pvc,) = documents(DEPLOY / "k8s" / "nabahan-state.yaml")
    assert (pvc["kind"], pvc["metadata"]["name"], pvc["spec"]["accessModes"]) == (
        "PersistentVolumeClaim", claim, ["ReadWriteMany"])


def test_the_helm_values_make_the_instance_of_deploy_dagster_yaml():
    daemon = VALUES["dagsterDaemon"]
    coordinator = daemon["runCoordinator"]
    assert (coordinator["enabled"], coordinator["type"]) == (True, INSTANCE["run_coordinator"]["class"])
    assert snake_keys(coordinator["config"]["queuedRunCoordinator"]) == INSTANCE["run_coordinator"]["config"]
    assert snake_keys(daemon["runMonitoring"]) == INSTANCE["run_monitoring"]
    for tick in ("schedule", "sensor", "autoMaterialize"):
        days = VALUES["retention"][tick]["purgeAfterDays"]
        expected = INSTANCE["retention"][snake(tick)]["purge_after_days"]
        assert (days if isinstance(days, int) else {k: v for k, v in days.items() if k in expected}) == expected
    postgres = VALUES["postgresql"]
    assert postgres["enabled"] is False and postgres["postgresqlPassword"] == "", "the password is a Secret's"
    assert postgres["service"]["port"] == 5432
    assert postgres["postgresqlScheme"] == INSTANCE["storage"]["postgres"]["postgres_db"]["scheme"] == "postgresql+psycopg2"
    secrets = {doc["metadata"]["name"]: doc for doc in documents(DEPLOY / "k8s" / "nabahan-secrets.example.yaml")}
    assert "postgresql-password" in secrets[VALUES["global"]["postgresqlSecretName"]]["stringData"]
    assert VALUES["telemetry"]["enabled"] is INSTANCE["telemetry"]["enabled"] is False


def test_one_run_per_agent_at_a_time_by_the_partition_tag():
    (limit,) = INSTANCE["run_coordinator"]["config"]["tag_concurrency_limits"]
    assert limit == {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1}
    assert INSTANCE["run_coordinator"]["config"]["max_concurrent_runs"] >= 2


def test_every_variable_the_code_reads_is_in_the_config_map_or_the_secret():
    (config_map,) = documents(DEPLOY / "k8s" / "nabahan-env.yaml")
    secret = next(doc for doc in documents(DEPLOY / "k8s" / "nabahan-secrets.example.yaml")
                  if doc["metadata"]["name"] == "nabahan-secrets")
    assert config_map["metadata"]["name"] == DEPLOYMENT["envConfigMaps"][0]["name"]
    assert secret["metadata"]["name"] == DEPLOYMENT["envSecrets"][0]["name"]
    assert all(isinstance(value, str) for value in config_map["data"].values()), "a ConfigMap holds text"
    # DAGSTER_HOME is the chart's (global.dagsterHome), set on every pod it makes.
    assert set(config_map["data"]) == set(settings.ENVIRONMENT_VARIABLES) - SECRETS - {"DAGSTER_HOME"}
    assert set(secret["stringData"]) == SECRETS
    assert all(value == "" for value in secret["stringData"].values()), "an example, never a secret"
    for name, value in config_map["data"].items():  # each value one the option takes
        if value:
            settings.SETTINGS[next(key for key, s in settings.SETTINGS.items() if s.env == name)].convert(value)


def test_deploy_dagster_yaml_is_a_valid_instance_with_credentials_from_the_environment(monkeypatch):
    text = (DEPLOY / "dagster.yaml").read_text(encoding="utf-8")
    assert not re.search(r"password:\s*[^{\s]", text), "no password in the file"
    postgres = INSTANCE["storage"]["postgres"]["postgres_db"]
    assert {entry["env"] for entry in postgres.values() if isinstance(entry, dict)} == PG_VARIABLES
    for name in PG_VARIABLES:
        monkeypatch.setenv(name, "5432" if name.endswith("PORT") else "x")
    result = process_config(dagster_instance_config_schema(), INSTANCE)
    assert result.success, result.errors
    launcher = process_config(K8sRunLauncher.config_type(), INSTANCE["run_launcher"]["config"])
    assert launcher.success, launcher.errors
    coordinator = process_config(dg.QueuedRunCoordinator.config_type(), INSTANCE["run_coordinator"]["config"])
    assert coordinator.success, coordinator.errors
    storage = process_config(PostgresEventLogStorage.config_type(), INSTANCE["storage"]["postgres"])
    assert storage.success, storage.errors
    assert storage.value["postgres_db"]["port"] == 5432, "the port from its variable, as a number"


@pytest.mark.parametrize("extra", ["deploy"])
def test_the_deploy_extra_pins_the_dagster_family(extra: str):
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dagster = next(d for d in project["dependencies"] if d.startswith("dagster=="))
    pins = dict(requirement.split("==") for requirement in project["optional-dependencies"][extra])
    assert set(pins) == {"dagster-postgres", "dagster-k8s"}
    assert len(set(pins.values())) == 1 and dagster.startswith("dagster==1.13.")
    installs = (REPO / "Makefile").read_text(encoding="utf-8")
    assert '.[test,deploy]' in installs, "the tests (the PostgreSQL one, the launcher's schema) need the deploy extra"
