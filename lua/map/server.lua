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
  -- relative links stay under it); any other path is a 404.
  path = "/",
  -- Access-Control-Allow-Origin on every response ("*" or one origin), so
  -- that other sites' pages may fetch the maps; false: none.
  cors = false,
}
M.config = {}
for k, v in pairs(DEFAULT_CONFIG) do M.config[k] = v end

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

-- Sets the server-side settings (nginx.conf's init_by_lua_block). Unknown
-- names and bad values are errors, so a typo stops nginx at start-up.
function M.configure(options)
  local new = {}
  for k, v in pairs(DEFAULT_CONFIG) do new[k] = v end
  for k, v in pairs(options or {}) do
    if DEFAULT_CONFIG[k] == nil then
      error("map.server.configure: unknown setting " .. tostring(k), 2)
    end
    local must = (CHECKS[k] or positive_integer)(v)
    if must then
      error(("map.server.configure: %s must be %s, got %s"):format(k, must, type(v) == "string" and
        ("%q"):format(v) or tostring(v)), 2)
    end
    new[k] = v
  end
  M.config = new
end

-- Checks decoded parameters (parse_query's) against the server's rules and
-- its size limits: a request, or nil and a message (map.query's check).
function M.check(params)
  return query.check(params, M.config)
end

-- The HTML error page for a refused raw query string and its message, with
-- the form holding what was sent.
function M.error_page(raw_query, message)
  return page.error_page(query.sent(raw_query), message, M.config)
end

local function plain(status, message)
  return status, {
    ["Content-Type"] = "text/plain; charset=utf-8",
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
  }, message .. "\n"
end


-- A 400 for a refused request: the HTML error page, or for format=text and
-- json (and unknown formats) a one-line plain-text message.
local function refuse(raw_query, message)
  if not query.wants_html(raw_query) then return plain(400, message) end
  return 400, {
    ["Content-Type"] = M.FORMATS.html,
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
    ["Content-Security-Policy"] = M.CSP,
  }, M.error_page(raw_query, message)
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

local function etag(hash, key)
  local revision = revisions[hash]
  if not revision then
    revision = hash(CODE)
    revisions[hash] = revision
  end
  return '"' .. hash(revision .. "\0" .. M.config.max_width .. "x" .. M.config.max_height .. "\0" .. key) .. '"'
end

-- Handles one GET request. `raw_query` is the raw query string (or nil);
-- `deps` may supply `hash(text)` (a hex digest for the ETag; none without
-- it) and `random_seed()`. Returns status, headers (table), body (a string,
-- or for the page a list of strings: table.concat(body) is the page), and
-- for a 500 the message to log.
function M.respond(raw_query, deps)
  deps = deps or {}
  local params, problem = M.parse_query(raw_query)
  local request
  if params then request, problem = M.check(params) end
  if not request then return refuse(raw_query, problem) end

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
    return refuse(raw_query, (result:gsub("^map%.[%w_]+: ", "")))
  end

  local body
  if format == "html" then
    if with_table then
      body = page.page(request, map.render(result), result, M.config)
    else
      body = page.page(request, result, nil, M.config)
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
    headers["Cache-Control"] = "public, max-age=" .. M.config.cache_max_age
    if deps.hash then
      headers["ETag"] = etag(deps.hash, M.permalink(request) .. "&format=" .. format
        .. (request.path and format == "html" and "&path=on" or ""))
    end
  else
    headers["Cache-Control"] = "no-store"
  end
  return 200, headers, body
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
  local path, cors = M.config.path, M.config.cors
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
    status, headers, body = 204, { ["Access-Control-Allow-Methods"] = "GET, HEAD", ["Cache-Control"] = "no-store" }, ""
  elseif method ~= "GET" and method ~= "HEAD" then
    status, headers, body = plain(405, "method not allowed: use GET or HEAD")
    headers["Allow"] = "GET, HEAD"
  elseif content then
    status, headers, body = plain(413, "request content not accepted: parameters go in the query string")
  else
    status, headers, body, log = M.respond(var.args, { hash = ngx.md5 })
  end
  if content then ngx.req.discard_body() end
  if log then ngx.log(ngx.ERR, "map.server: ", log) end
  if cors then headers["Access-Control-Allow-Origin"] = cors end
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
