-- SPDX-License-Identifier: ISC
-- httpbench.lua -- wrk's requests for bench/httpbench.py: POST /v2/solve
-- with one puzzle ({"puzzle": ...}) or BATCH of them ({"puzzles": [...]}),
-- cycling through the 81-character lines of PUZZLES; a response that is
-- not 200 with a solution in it counts as an error.  done() prints one
-- line, "httpbench k=v ...", for the driver.

local puzzles = {}
for line in io.lines(os.getenv("PUZZLES")) do
	if #line == 81 and line:sub(1, 1) ~= "#" then
		puzzles[#puzzles + 1] = line
	end
end
local batch = tonumber(os.getenv("BATCH") or "0")
local threads = {}
local i = 0
bad = 0		-- a global: done() reads it with thread:get()

function setup(thread)
	threads[#threads + 1] = thread
end

function init(args)
	i = math.random(#puzzles)
end

local function next_puzzle()
	i = i % #puzzles + 1
	return puzzles[i]
end

function request()
	local body
	if batch == 0 then
		body = '{"puzzle":"' .. next_puzzle() .. '"}'
	else
		local t = {}
		for k = 1, batch do
			t[k] = '"' .. next_puzzle() .. '"'
		end
		body = '{"puzzles":[' .. table.concat(t, ",") .. ']}'
	end
	return wrk.format("POST", nil,
	    {["Content-Type"] = "application/json"}, body)
end

function response(status, headers, body)
	if status ~= 200 or not body:find('"solution"', 1, true) or
	    body:find('"error"', 1, true) then
		bad = bad + 1
	end
end

function done(summary, latency, requests)
	local errors = summary.errors.status + summary.errors.connect +
	    summary.errors.read + summary.errors.write +
	    summary.errors.timeout
	for _, t in ipairs(threads) do
		errors = errors + t:get("bad")
	end
	io.write(string.format("httpbench requests=%d seconds=%.3f "
	    .. "p50_us=%d p99_us=%d errors=%d\n", summary.requests,
	    summary.duration / 1e6, latency:percentile(50),
	    latency:percentile(99), errors))
end
