-- The map server's request handling, as a plain Lua module: `map.server`.
--
-- nginx loads it once, in init_by_lua (workers inherit it), and calls
-- `serve(ngx)` from content_by_lua, in any location: the page's links are
-- relative to it. Everything except `serve` is plain Lua that never touches
-- `ngx`, so spec/server_spec.lua can test it on Lua 5.4 and LuaJIT without a
-- server.
--
--   GET /?seed=N&width=W&height=H&algorithm=A&format=F[&option=value...][&path=on]
--
-- The options are those of `map.describe(algorithm).options`, any
-- algorithm's, read from text by map.args, as the CLI reads them. All
-- parameters are optional; an empty value (`seed=`, as an empty form field
-- sends it) is the same as leaving the parameter out. Anything else that is
-- not exactly right is a 400: for format=text and json a one-line plain-text
-- message, for the page (format=html) an HTML page with the message and the
-- form.
--
-- This file is the handler: the settings, the response (status, headers,
-- ETag) and the nginx glue. Installed beside it: map.query (the query
-- string read, checked and made again), map.page (the HTML) and map.args
-- (values read from text, shared with the CLI). Their public parts are
-- this module's too, under the same names as before the split.
local map = require "map"
local args = require "map.args"
local query = require "map.query"
local page = require "map.page"

local M = {}

-- The parts' public names, this module's own too, as they were before the
-- split (spec/server_spec.lua uses them through map.server).
local SHARED = {
  { query, { "DEFAULT_WIDTH", "DEFAULT_HEIGHT", "DEFAULT_ALGORITHM", "PARAMETERS", "FORMATS", "parse_query",
    "permalink" } },
  { args, { "ALGORITHMS", "OPTION_TYPES", "OPTIONS", "random_seed" } },
  { page, { "escape_html", "SCRIPT", "SCRIPT_HASH", "CSP" } },
}
for _, part in ipairs(SHARED) do
  for _, name in ipairs(part[2]) do M[name] = part[1][name] end
end

-- Server-side settings; nginx.conf sets them through configure().
local DEFAULT_CONFIG = {
  max_width = 200, -- largest width and height a request may ask for
  max_height = 200,
  cache_max_age = 31536000, -- seconds a seeded response may be cached (one year)
  -- Where the maps are, within the location that calls serve: this path;
  -- the same without its final slash redirects to it (so that the page's
  -- relative links stay under it); any other path is a 404. Each path has
  -- a configuration of its own (two locations, two prefixes, two configs).
  path = "/",
  -- Access-Control-Allow-Origin on every response ("*" or one origin), so
  -- that other sites' pages may fetch the maps; false: none.
  cors = false,
}

-- The configurations by path, and the one configured last (M.config: what
-- respond and check use when given none, and serve for a path under no
-- configured prefix).
local configs
local defaulted -- true while configs holds only the defaults at "/", which the first configure replaces

-- Forgets every path's configuration: only the defaults, at "/".
local function reset()
  local config = {}
  for k, v in pairs(DEFAULT_CONFIG) do config[k] = v end
  configs, defaulted = { [config.path] = config }, true
  M.config = config
end
reset()

-- Each setting's check: nil if `v` is good, else what it must be.
local CHECKS = {
  path = function(v)
    if type(v) ~= "string" or not v:match("^/[%w%-._~/]*$") or v:sub(-1) ~= "/" or v:find("//", 1, true) then
      return "a path from / to a final / (letters, digits, - . _ ~)"
    end
  end,
  cors = function(v)
    if v ~= false and (type(v) ~= "string" or v ~= "*" and not v:match("^https?://[%w%-.]+:?%d*$")) then
      return 'false, "*" or an origin such as "https://example.org"'
    end
  end,
}
local function positive_integer(v)
  if type(v) ~= "number" or v ~= math.floor(v) or v < 1 or v > 2 ^ 31 then return "a positive integer" end
end

-- The settings of `options` over the defaults, checked: a new table.
local function checked(options)
  local new = {}
  for k, v in pairs(DEFAULT_CONFIG) do new[k] = v end
  for k, v in pairs(options) do
    if DEFAULT_CONFIG[k] == nil then
      error("map.server.configure: unknown setting " .. tostring(k), 3)
    end
    local must = (CHECKS[k] or positive_integer)(v)
    if must then
      error(("map.server.configure: %s must be %s, got %s"):format(k, must, type(v) == "string" and
        ("%q"):format(v) or tostring(v)), 3)
    end
    new[k] = v
  end
  return new
end

-- Sets the server-side settings of one path (nginx.conf's
-- init_by_lua_block): `configure{path = "/maps/", ...}` once per location
-- that serves maps, each its own settings; the paths configured before keep
-- theirs. `configure()` (no table) forgets them all: the defaults at "/".
-- Unknown names and bad values are errors, so a typo stops nginx at start-up.
function M.configure(options)
  if options == nil then return reset() end
  local new = checked(options)
  -- The untouched defaults give way: a server that serves /maps/ alone does
  -- not also serve /.
  if defaulted then configs, defaulted = {}, false end
  configs[new.path] = new
  M.config = new
end

-- The configuration that answers a request for `uri`: its path's, or the
-- one whose path is `uri` plus a final slash (the redirect), or the longest
-- configured path that `uri` lies under (its 404 names that path), or the
-- one configured last.
function M.config_for(uri)
  local exact = configs[uri] or configs[uri .. "/"]
  if exact then return exact end
  local best
  for path, config in pairs(configs) do
    if uri:sub(1, #path) == path and (not best or #path > #best.path) then best = config end
  end
  return best or M.config
end

-- Checks decoded parameters (parse_query's) against the server's rules and
-- its size limits (`config`'s, M.config's by default): a request, or nil
-- and a message (map.query's check).
function M.check(params, config)
  return query.check(params, config or M.config)
end

-- The HTML error page for a refused raw query string and its message, with
-- the form holding what was sent.
function M.error_page(raw_query, message, config)
  return page.error_page(query.sent(raw_query), message, config or M.config)
end

local function plain(status, message)
  return status, {
    ["Content-Type"] = "text/plain; charset=utf-8",
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
  }, message .. "\n"
end

-- A UTF-8 sequence that is not valid (a lone byte, a truncated or overlong
-- sequence, a surrogate) as U+FFFD: a message quotes what was sent, and
-- JSON must be valid UTF-8.
local function valid_utf8(s)
  return (s:gsub("[\128-\255][\128-\191]*", function(seq)
    local lead, second, n = seq:byte(1), seq:byte(2) or 0, #seq
    local want = lead >= 0xF0 and lead <= 0xF4 and 4 or lead >= 0xE0 and lead <= 0xEF and 3
      or lead >= 0xC2 and lead <= 0xDF and 2
    if want and n > want then return valid_utf8(seq:sub(1, want)) .. ("\239\191\189"):rep(n - want) end
    if want ~= n or lead == 0xE0 and second < 0xA0 or lead == 0xED and second > 0x9F
      or lead == 0xF0 and second < 0x90 or lead == 0xF4 and second > 0x8F then
      return ("\239\191\189"):rep(n)
    end
  end))
end

local JSON_ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }

-- A JSON string holding `s`.
function M.json_string(s)
  return '"' .. valid_utf8(s):gsub('[%c"\\]', function(c)
    return JSON_ESCAPES[c] or ("\\u%04x"):format(c:byte())
  end) .. '"'
end

-- A 400 for a refused request: the HTML error page; for format=json, the
-- message as JSON ({"error": "..."}); for format=text (and unknown formats)
-- a one-line plain-text message.
local function refuse(raw_query, message, config)
  local asked = query.asked_format(raw_query)
  if asked == "json" then
    local status, headers = plain(400, message)
    headers["Content-Type"] = M.FORMATS.json
    return status, headers, '{"error":' .. M.json_string(message) .. "}"
  elseif asked ~= "html" then
    return plain(400, message)
  end
  return 400, {
    ["Content-Type"] = M.FORMATS.html,
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
    ["Content-Security-Policy"] = M.CSP,
  }, M.error_page(raw_query, message, config)
end

-- What a seeded response's body is made from besides its request: the code
-- of this file, map.query, map.page and map.args, the module's version and
-- the size limits (the form shows them). The ETag is the hash of this and
-- the request, not of the body: hashing the 13 KB page costs more than
-- serving it (docs/server.md, Caching).
local function source_of(f)
  local source = debug.getinfo(f, "S").source
  local file = source:sub(1, 1) == "@" and io.open(source:sub(2), "rb")
  if not file then return source end -- not from a file: its name only
  local code = file:read("*a")
  file:close()
  return code
end
local CODE = table.concat({ source_of(source_of), source_of(query.check), source_of(page.page), source_of(args.read),
  map.VERSION }, "\0")
local revisions = setmetatable({}, { __mode = "k" }) -- hash function -> the hash of CODE

local function etag(hash, key, config)
  local revision = revisions[hash]
  if not revision then
    revision = hash(CODE)
    revisions[hash] = revision
  end
  return '"' .. hash(revision .. "\0" .. config.max_width .. "x" .. config.max_height .. "\0" .. key) .. '"'
end

-- Handles one GET request. `raw_query` is the raw query string (or nil);
-- `deps` may supply `hash(text)` (a hex digest for the ETag; none without
-- it) and `random_seed()`; `config` is a path's configuration (M.config by
-- default). Returns status, headers (table), body (a string,
-- or for the page a list of strings: table.concat(body) is the page), and
-- for a 500 the message to log.
function M.respond(raw_query, deps, config)
  deps, config = deps or {}, config or M.config
  local params, problem = M.parse_query(raw_query)
  local request
  if params then request, problem = M.check(params, config) end
  if not request then return refuse(raw_query, problem, config) end

  local seeded = request.seed ~= nil
  if not seeded then request.seed = (deps.random_seed or M.random_seed)() end
  request.seed_text = query.seed_text(request.seed)
  local options = {
    width = request.width, height = request.height, seed = request.seed, algorithm = request.algorithm,
  }
  for _, name in ipairs(M.OPTIONS) do options[name] = request.options[name] end
  -- The page shows the path only when asked: that needs the map's table
  -- (map.path reads one); its text is map.render of it, which is
  -- generate_text's, byte for byte.
  local format = request.format
  local with_table = format == "html" and request.path
  local generate = format == "json" and map.generate_json or with_table and map.generate or map.generate_text
  local ok, result = pcall(generate, options)
  if not ok then
    result = tostring(result)
    if args.is_internal(result) then -- a bug in the module, not in the request
      local status, headers, body = plain(500, "internal error")
      return status, headers, body, result
    end
    return refuse(raw_query, args.unprefixed(result), config)
  end

  local body
  if format == "html" then
    if with_table then
      body = page.page(request, map.render(result), result, config)
    else
      body = page.page(request, result, nil, config)
    end
  elseif format == "text" then
    body = result .. "\n" -- exactly the CLI's stdout
  else
    body = result
  end
  local headers = {
    ["Content-Type"] = M.FORMATS[format],
    ["X-Content-Type-Options"] = "nosniff",
    ["X-Map-Seed"] = request.seed_text,
  }
  if format == "html" then
    headers["Content-Security-Policy"] = M.CSP
  end
  if seeded then
    headers["Cache-Control"] = "public, max-age=" .. config.cache_max_age
    if deps.hash then
      headers["ETag"] = etag(deps.hash, M.permalink(request) .. "&format=" .. format
        .. (request.path and format == "html" and "&path=on" or ""), config)
    end
  else
    headers["Cache-Control"] = "no-store"
  end
  return 200, headers, body
end

-- The CORS headers of every answer when `cors` allows an origin: a page of
-- that origin may read the seed and the ETag too; for one origin (not "*"),
-- caches must keep answers apart by the request's Origin.
local function add_cors(headers, cors)
  headers["Access-Control-Allow-Origin"] = cors
  headers["Access-Control-Expose-Headers"] = "X-Map-Seed, ETag"
  if cors ~= "*" then headers["Vary"] = "Origin" end
end

-- The nginx side: content_by_lua_block { require("map.server").serve(ngx) },
-- in any location.
--
-- Maps have no modification date, so If-Unmodified-Since is ignored (RFC
-- 9110, 13.1.4): nginx's not_modified filter would answer it with 412 on any
-- 200 without Last-Modified, so the header is cleared before the response.
-- Requests that carry content are refused without reading it: other methods
-- with 405, GET and HEAD with 413. nginx.conf sets no body size limit, as
-- nginx logs its own refusal ("client intended to send too large body") at
-- error level; the unread body is discarded (for at most lingering_time).
function M.serve(ngx)
  local status, headers, body, log
  local method = ngx.req.get_method()
  local var = ngx.var
  local config = M.config_for(var.uri)
  local path, cors = config.path, config.cors
  local content = var.http_transfer_encoding ~= nil or (tonumber(var.http_content_length) or 0) > 0
  if var.http_if_unmodified_since ~= nil then ngx.req.clear_header("If-Unmodified-Since") end
  if var.uri ~= path and var.uri .. "/" == path then
    -- /maps to /maps/: relative links (?seed=...) on a page at /maps would
    -- leave the prefix.
    local location = path .. (var.args and "?" .. var.args or "")
    status, headers, body = plain(301, "moved to " .. location)
    headers["Location"] = location
  elseif var.uri ~= path then
    status, headers, body = plain(404, "not found: maps are served at " .. path)
  elseif method == "OPTIONS" and cors then -- a preflight, for the origins cors allows
    status, headers, body = 204, {
      ["Access-Control-Allow-Methods"] = "GET, HEAD",
      -- A conditional fetch (If-None-Match) is not a simple request: the
      -- preflight must allow it. A day's cache saves a preflight per map.
      ["Access-Control-Allow-Headers"] = "If-None-Match",
      ["Access-Control-Max-Age"] = "86400",
      ["Cache-Control"] = "no-store",
    }, ""
  elseif method ~= "GET" and method ~= "HEAD" then
    status, headers, body = plain(405, "method not allowed: use GET or HEAD")
    headers["Allow"] = "GET, HEAD"
  elseif content then
    status, headers, body = plain(413, "request content not accepted: parameters go in the query string")
  else
    status, headers, body, log = M.respond(var.args, { hash = ngx.md5 }, config)
  end
  if content then ngx.req.discard_body() end
  if log then ngx.log(ngx.ERR, "map.server: ", log) end
  if cors then add_cors(headers, cors) end
  local length = 0
  if type(body) == "table" then
    for i = 1, #body do length = length + #body[i] end
  else
    length = #body
  end
  ngx.status = status
  for name, value in pairs(headers) do ngx.header[name] = value end
  ngx.header["Content-Length"] = length
  ngx.print(body)
end

return M
