"""deploy/: the production instance configuration, the code location's Dockerfile and the Helm
values cannot be built or installed here (no Docker engine, no registry, no cluster); they are
parsed and checked against the code: the module they serve, the instance settings, and every
environment variable the pipeline reads (settings.ENVIRONMENT_VARIABLES)."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml
from dagster._core.instance.config import dagster_instance_config

from nabahan_pipeline.orchestration.resources import run_tags
from nabahan_pipeline.settings import ENVIRONMENT_VARIABLES, SETTINGS, resolve_run_settings

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
MODULE = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["dagster"]["module_name"]
SECRET_VARIABLES = {setting.env for setting in SETTINGS.values() if setting.secret}


def load(name: str) -> dict:
    return yaml.safe_load((DEPLOY / name).read_text(encoding="utf-8"))


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of deploy/Dockerfile, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def docker_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, arguments in dockerfile():
        if instruction == "ENV":
            env.update(part.split("=", 1) for part in shlex.split(arguments))
    return env


def env_references(config: object) -> set[str]:
    """Every {env: NAME} in a Dagster config tree."""
    if isinstance(config, dict):
        found = {config["env"]} if set(config) == {"env"} else set()
        return found.union(*(env_references(value) for value in config.values()))
    if isinstance(config, list):
        return set().union(*(env_references(value) for value in config))
    return set()


def test_the_instance_configuration_is_valid_for_dagster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text((DEPLOY / "dagster.yaml").read_text())
    for name in env_references(load("dagster.yaml")):
        monkeypatch.setenv(name, "5432" if name.endswith("_PORT") else f"value-of-{name}")
    config, _ = dagster_instance_config(str(home))
    assert config["storage"]["postgres"]["postgres_db"]["password"] == {"env": "DAGSTER_PG_PASSWORD"}
    assert config["run_launcher"]["class"] == "K8sRunLauncher"
    coordinator = config["run_coordinator"]["config"]
    assert coordinator["max_concurrent_runs"] >= 1
    # The tag limited per agent is the one our runs carry.
    agent_tag = next(key for key in run_tags(resolve_run_settings()) if key.endswith("/agent"))
    assert coordinator["tag_concurrency_limits"] == [
        {"key": agent_tag, "value": {"applyLimitPerUniqueValue": True}, "limit": 1}
    ]
    assert config["run_monitoring"]["enabled"] is True
    assert config["retention"]["sensor"]["purge_after_days"]["skipped"] > 0
    # No credential is written in the file: each one is an environment reference.
    text = (DEPLOY / "dagster.yaml").read_text()
    assert "password: { env: DAGSTER_PG_PASSWORD }" in text


def test_every_variable_the_code_reads_is_provided_and_secrets_only_by_the_secret():
    config_map = load("k8s/nabahan-env.yaml")
    secret = load("k8s/nabahan-secrets.example.yaml")
    assert (config_map["kind"], secret["kind"]) == ("ConfigMap", "Secret")
    plain, secrets = set(config_map["data"]), set(secret["stringData"])
    provided = plain | secrets | set(docker_env())
    assert set(ENVIRONMENT_VARIABLES) <= provided, sorted(set(ENVIRONMENT_VARIABLES) - provided)
    assert SECRET_VARIABLES and SECRET_VARIABLES <= secrets
    assert not SECRET_VARIABLES & (plain | set(docker_env())), "a credential outside the Secret"
    # And every variable the instance configuration reads, its password in the Secret.
    assert env_references(load("dagster.yaml")) <= plain | secrets
    assert "DAGSTER_PG_PASSWORD" in secrets and "DAGSTER_PG_PASSWORD" not in plain
    assert all(value == "" for value in secret["stringData"].values()), "the example holds no credential"


def test_the_helm_values_serve_our_code_location_with_that_environment():
    values = load("helm-values.yaml")
    env_names = {"config_map": load("k8s/nabahan-env.yaml")["metadata"]["name"],
                 "secret": load("k8s/nabahan-secrets.example.yaml")["metadata"]["name"]}
    [deployment] = values["dagster-user-deployments"]["deployments"]
    assert values["dagster-user-deployments"]["enabled"] is True
    assert deployment["dagsterApiGrpcArgs"] == ["--module-name", MODULE]
    launcher = values["runLauncher"]
    assert launcher["type"] == "K8sRunLauncher"
    for where in (deployment, launcher["config"]["k8sRunLauncher"]):
        assert [m["name"] for m in where["envConfigMaps"]] == [env_names["config_map"]]
        assert [s["name"] for s in where["envSecrets"]] == [env_names["secret"]]
    # The same instance settings as deploy/dagster.yaml.
    instance = load("dagster.yaml")
    queued = values["dagsterDaemon"]["runCoordinator"]["config"]["queuedRunCoordinator"]
    assert queued["maxConcurrentRuns"] == instance["run_coordinator"]["config"]["max_concurrent_runs"]
    assert queued["tagConcurrencyLimits"] == instance["run_coordinator"]["config"]["tag_concurrency_limits"]
    assert values["dagsterDaemon"]["runMonitoring"]["enabled"] is True
    assert values["postgresql"]["enabled"] is False and values["generatePostgresqlPasswordSecret"] is False
    assert values["postgresql"]["postgresqlScheme"] == instance["storage"]["postgres"]["postgres_db"]["scheme"]
    assert values["retention"]["sensor"]["purgeAfterDays"] == instance["retention"]["sensor"]["purge_after_days"]


def test_the_dockerfile_serves_the_module_with_the_instance_configuration():
    steps = dockerfile()
    assert steps[0] == ("FROM", "python:3.11-slim")
    env = docker_env()
    home = env["DAGSTER_HOME"]
    assert ("COPY", "deploy/dagster.yaml ${DAGSTER_HOME}/dagster.yaml") in steps and home.startswith("/")
    installs = [args for instruction, args in steps if instruction == "RUN" and "pip install" in args]
    assert any(".[deploy" in args for args in installs), "dagster-postgres and dagster-k8s installed"
    command = json.loads(next(args for instruction, args in steps if instruction == "CMD"))
    assert command[:3] == ["dagster", "api", "grpc"] and command[command.index("--module-name") + 1] == MODULE
    port = command[command.index("--port") + 1]
    assert ("EXPOSE", port) in steps
    assert load("helm-values.yaml")["dagster-user-deployments"]["deployments"][0]["port"] == int(port)
