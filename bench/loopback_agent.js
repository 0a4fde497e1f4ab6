// A loopback agent for the benchmarks: the HTTP agent contract (POST {"question", "filters"} as
// JSON, the answer JSON back) answered after a fixed delay, so the agent is never the bottleneck.
//
//     node bench/loopback_agent.js [--latency-ms 50] [--port 0]
//
// Prints "listening on PORT" once it accepts connections. GET /stats tells what it saw: calls,
// the first call's arrival and the last answer's end (ms on its own clock), and the mean time it
// held a call (the true latency, timer overshoot included); POST /reset forgets it.
"use strict";

const http = require("http");
const { performance } = require("perf_hooks");

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 && at + 1 < process.argv.length ? Number(process.argv[at + 1]) : fallback;
}

const latencyMs = option("--latency-ms", 50);
const port = option("--port", 0);

// One row that its SQL really returns, and an Arabic insight grounded in it: every case passes.
const ANSWER = JSON.stringify({
  status: "success",
  sql: "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
  data: [{ n: 7 }],
  insights: "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
  error: null,
});

// A numbered copy of a case ("... (نسخة 12)", eval_runs.write_cases) gets an answer of its own:
// its number as the row, in the SQL and in the insight (instant_agent.py's).
const COPY = /\(نسخة (\d+)\)\s*$/;
function answerTo(asked) {
  const copy = asked && typeof asked.question === "string" ? COPY.exec(asked.question) : null;
  if (!copy) return ANSWER;
  const number = Number(copy[1]);
  return JSON.stringify({
    status: "success",
    sql: `SELECT ${number} AS n FROM tenders_full_details LIMIT 1`,
    data: [{ n: number }],
    insights: `بلغ عدد المناقصات المطابقة ${number} مناقصة وفق البيانات المتاحة في المنصة.`,
    error: null,
  });
}

let stats;
function reset() {
  stats = { calls: 0, first_start_ms: null, last_end_ms: null, held_ms_total: 0 };
}
reset();

function send(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const start = performance.now();
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    if (req.method === "GET" && req.url === "/stats") {
      const mean = stats.calls ? stats.held_ms_total / stats.calls : null;
      return send(res, 200, JSON.stringify({ ...stats, mean_held_ms: mean, latency_ms: latencyMs }));
    }
    if (req.method === "POST" && req.url === "/reset") {
      reset();
      return send(res, 200, "{}");
    }
    if (req.method !== "POST") return send(res, 404, '{"error": "not found"}');
    let asked;
    try {
      asked = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch (err) {
      return send(res, 400, JSON.stringify({ error: `bad JSON: ${err.message}` }));
    }
    if (stats.first_start_ms === null || start < stats.first_start_ms) stats.first_start_ms = start;
    setTimeout(() => {
      res.on("finish", () => {
        const end = performance.now();
        stats.calls += 1;
        stats.held_ms_total += end - start;
        if (stats.last_end_ms === null || end > stats.last_end_ms) stats.last_end_ms = end;
      });
      send(res, 200, answerTo(asked));
    }, latencyMs);
  });
});

server.keepAliveTimeout = 60_000; // no connection closed under a client between two runs' calls
server.listen(port, "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
