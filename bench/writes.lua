-- bench/writes.lua — wrk script for bench/run's durable write rows. The
-- environment names the row (WRITE) and what it writes to (TOKEN, BASE: the
-- customer's /api/spe/customer/{id}, OP_SITE, OP_NET, OP_HOST, AP_WAF,
-- AP_RULE; CYCLE_SITE: a site of 12.0.0.0/8, CYCLE_NETS: its networks
-- 12.200.R.0/24 for R 0-9; ROUND: the round; see bench/seed.py).
--
-- Creates run as create/delete cycles: a customer holds at most 1,000 sites,
-- a site 256 networks, a network 1,024 hosts and a domain port 100 WAF rules,
-- so a run of tens of thousands of creates cannot keep what it made. Each
-- thread deletes what it created (ids taken from the answers) before it
-- creates again, so a few dozen objects live at any time; both halves are
-- durable writes. Updates rewrite one object over and over, each with a new
-- description (a rule: a new name), so that every one changes what is
-- stored; they keep the object's addresses, as an edit of its description or
-- settings does (an update that keeps them skips their overlap checks).
local e = os.getenv
local token, base, kind = e("TOKEN"), e("BASE"), e("WRITE")
-- each round (0-9) cycles through its own names and addresses: a run
-- stops with a few creates not yet deleted, which the next round must not hit
local round = tonumber(e("ROUND") or "0") % 10
local q = "?access_token=" .. token
local form = { ["Content-Type"] = "application/x-www-form-urlencoded" }
local json = { ["Content-Type"] = "application/json" }

-- tid: this thread's number (a global wrk's thread:set gives each thread)
local threads = 0
function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

local n = 0          -- creates sent by this thread
local created = {}   -- ids answered, waiting for their delete
local rule_body = '{"rule_name":"r%d","conditions":[{"field":"path","operator":"begins_with",' ..
                  '"value":"/x%d"}],"action":"block"}'

-- the collection a create posts to and the member path of an id
local coll = {
  site = base .. "/op/site",
  network = base .. "/op/site/" .. (e("CYCLE_SITE") or "") .. "/network",
  host = base .. "/op/site/" .. (e("CYCLE_SITE") or "") .. "/network/" ..
         ((e("CYCLE_NETS") or ""):match("^" .. string.rep("%w+%s+", round) .. "(%w+)") or "") .. "/host",
  -- a domain port holds at most 100 rules: odd rounds use the HTTP port's
  rule = (round % 2 == 1 and e("AP_WAF80") or e("AP_WAF") or "") .. "/custom-rule",
}
local idname = { site = "site_id", network = "network_id", host = "host_id", rule = "rule_id" }
local what = kind:match("^(%a+)_")

local function create_body()
  n = n + 1
  -- 1,024 addresses per thread, reused once their holder is deleted
  local t = tid or 0
  local i = round * 2048 + t * 1024 + n % 1024
  local a, b = math.floor(i / 256), i % 256
  if what == "site" then
    return string.format("site_name=c%d_%d_%d&as_num=64496&cidr=11.%d.%d.0/24", round, t, n, a, b), form
  elseif what == "network" then
    return string.format("network_name=c%d_%d_%d&cidr=12.%d.%d.0/24", round, t, n, a, b), form
  elseif what == "host" then
    -- the round's network is 12.200.ROUND.0/24: addresses 1-127 for thread 0, 128-254 for thread 1
    return string.format("host_name=c%d_%d&cidr=12.200.%d.%d", t, n, round, 1 + t * 127 + n % 127), form
  end
  return string.format(rule_body, i, n), json
end

local updates = {
  site_update = { base .. "/op/site/" .. (e("OP_SITE") or ""),
                  "as_num=64496&cidr=198.19.99.0/24&site_desc=u%d", form },
  network_update = { base .. "/op/site/" .. (e("OP_SITE") or "") .. "/network/" .. (e("OP_NET") or ""),
                     "cidr=198.19.99.0/24&network_desc=u%d", form },
  host_update = { base .. "/op/site/" .. (e("OP_SITE") or "") .. "/network/" .. (e("OP_NET") or "") ..
                  "/host/" .. (e("OP_HOST") or ""), "cidr=198.19.99.1&host_desc=u%d", form },
  rule_update = { (e("AP_WAF") or "") .. "/custom-rule/" .. (e("AP_RULE") or ""),
                  '{"rule_name":"bench%d","conditions":[{"field":"path","operator":"begins_with",' ..
                  '"value":"/admin"}],"action":"log"}', json },
}

function request()
  local u = updates[kind]
  if u then
    n = n + 1
    return wrk.format("PUT", u[1] .. q, u[3], string.format(u[2], (tid or 0) * 1000000 + n))
  end
  local id = table.remove(created)
  if id then
    return wrk.format("DELETE", coll[what] .. "/" .. id .. q)
  end
  local body, headers = create_body()
  return wrk.format("POST", coll[what] .. q, headers, body)
end

function response(status, headers, body)
  if updates[kind] or status ~= 200 then
    return
  end
  local id = body:match('"' .. idname[what] .. '":"(%w+)"')
  if id then
    table.insert(created, id)
  end
end
