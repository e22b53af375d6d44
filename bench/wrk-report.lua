-- wrk's script for `load()` (load.ts): the request's method and body come from the environment, and
-- wrk's summary is printed as one JSON line after its own report. Latencies are in microseconds.
wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY") or ""
if body ~= "" then wrk.body = body end

-- WRK_ADDRESSES=N: each request comes through the proxy from one of N addresses in turn.
local addresses = tonumber(os.getenv("WRK_ADDRESSES") or "0")
local sent = 0
if addresses > 0 then
  function request()
    local i = sent % addresses
    sent = sent + 1
    wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(i / 65536) % 256, math.floor(i / 256) % 256, i % 256)
    return wrk.format()
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"failed":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
