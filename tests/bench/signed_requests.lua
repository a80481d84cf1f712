-- wrk script: every request is a different pre-signed payout-check, read from the file named
-- by the SIGNED environment variable (one request a line: path, Authorization, body, tab
-- separated). Threads take every n-th line, so no nonce is sent twice; a thread that runs
-- out starts again, and the replays are refused (403, counted by wrk as non-2xx).
local threads = {}
local counter = 0

function setup(thread)
   thread:set("id", counter)
   table.insert(threads, thread)
   counter = counter + 1
end

function init(args)
   local file = assert(io.open(os.getenv("SIGNED"), "r"))
   local host = os.getenv("SIGNED_HOST")
   local nthreads = tonumber(os.getenv("WRK_THREADS"))
   requests = {}
   local n = 0
   for line in file:lines() do
      if n % nthreads == id then
         local path, auth, body = line:match("^([^\t]*)\t([^\t]*)\t(.*)$")
         table.insert(requests, wrk.format("POST", path, {
            ["Host"] = host,
            ["Content-Type"] = "application/x-www-form-urlencoded",
            ["Authorization"] = auth,
         }, body))
      end
      n = n + 1
   end
   file:close()
   index = 0
end

function request()
   index = index + 1
   if index > #requests then
      index = 1
   end
   return requests[index]
end
