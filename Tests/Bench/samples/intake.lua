local testers = {"t-1","t-2"}
local requests = {}
local counter = 0
local threads_started = 0
function setup(thread)
  thread:set("first", threads_started)
  threads_started = threads_started + 1
end
function init(args)
  counter = first * 5
  for i, tester in ipairs(testers) do
    requests[i] = wrk.format("POST", nil, {["Content-Type"] = "application/json", ["Authorization"] = "Bearer TOKEN"},
      '{"tester":"' .. tester .. '","verdict":"passed","task_outcome":"completed_independently","severity":"none","platform":"ios","os_version":"18","app_build":"1","assistive_tech":"voiceover"}')
  end
end
function request()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end
