-- End-to-end: headless Neovim's own LSP client drives `t27 lsp` on a copy of the language
-- server's fixture workspace. Run by tests/editor/neovim.sh (from .ci/run), which sets
-- T27 (the binary) and WORKSPACE (the copy). Written for Neovim 0.7 (Debian 12's) and later.
-- Exits 0 when every check holds; otherwise prints what failed and exits 1.

local t27 = os.getenv('T27')
local root = os.getenv('WORKSPACE')
local app_path = root .. '/specs/shop/app.t27'
local rules_path = root .. '/specs/shop/rules.t27'
local failures = 0
local exit_code

local function say(text)
  io.stdout:write(text .. '\n')
end

local function check(ok, what, detail)
  if ok then
    say('ok    ' .. what)
  else
    failures = failures + 1
    say('FAIL  ' .. what .. (detail and (': ' .. vim.inspect(detail)) or ''))
  end
end

local function finish()
  say(failures == 0 and 'all checks passed' or (failures .. ' checks failed'))
  vim.cmd(failures == 0 and 'qall!' or 'cquit! 1')
end

-- Every step; an error anywhere (a reply missing, say) fails the run rather than hanging it.
local function main()
  local client_id = vim.lsp.start_client({
    name = 't27',
    cmd = { t27, 'lsp' },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'fixture' } },
    on_exit = function(code) exit_code = code end,
  })
  check(client_id ~= nil, 'the client starts `t27 lsp`')

  local function open(path)
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local buf = vim.api.nvim_get_current_buf()
    vim.bo[buf].filetype = 't27'
    vim.lsp.buf_attach_client(buf, client_id)
    return buf
  end

  local function client()
    return vim.lsp.get_client_by_id(client_id)
  end

  -- The first line (0-based) and column holding `needle`, after `from` lines.
  local function find(buf, needle, from)
    local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    for i = (from or 0) + 1, #lines do
      local col = lines[i]:find(needle, 1, true)
      if col then
        return i - 1, col - 1
      end
    end
    error('`' .. needle .. '` not in the buffer')
  end

  local function at(buf, needle, into, from)
    local line, col = find(buf, needle, from)
    return {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = line, character = col + (into or 0) },
    }
  end

  local function request(buf, method, params)
    local reply, err = client().request_sync(method, params, 10000, buf)
    if not reply then
      return nil, err
    end
    return reply.result, reply.err
  end

  local function text(buf)
    return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  end

  local app = open(app_path)

  -- Colour: the tree-sitter grammar, compiled by neovim.sh, loaded by Neovim's own runtime;
  -- the highlight query run over the buffer as Neovim's highlighter runs it.
  local parser_path = os.getenv('T27_PARSER')
  local language = vim.treesitter.language
  if language.add then
    language.add('t27', { path = parser_path })
  else
    language.require_language('t27', parser_path)
  end
  local query_file = io.open(os.getenv('T27_QUERIES') .. '/highlights.scm')
  local query_text = query_file:read('*a')
  query_file:close()
  local parse_query = (vim.treesitter.query and vim.treesitter.query.parse) or vim.treesitter.parse_query
  local query = parse_query('t27', query_text)
  local tree = vim.treesitter.get_parser(app, 't27'):parse()[1]
  check(not tree:root():has_error(), 'the grammar reads app.t27 without an error node')
  local coloured = {}
  for id, node in query:iter_captures(tree:root(), app, 0, -1) do
    local row, col = node:range()
    local key = row .. ':' .. col
    if not coloured[key] then
      coloured[key] = query.captures[id]
    end
  end
  local function colour(needle)
    local line, col = find(app, needle)
    return coloured[line .. ':' .. col]
  end
  check(colour('; Imports') == 'comment' and colour('module') == 'keyword' and colour('ShopApp') == 'module'
    and colour('MAX_ITEMS') == 'constant' and colour('room(taken') == 'function' and colour('u32') == 'type.builtin'
    and colour('return 0') == 'keyword.return',
    'the highlight query colours comments, keywords, modules, constants, functions and types', coloured)
  vim.wait(10000, function() return client().initialized end, 20)
  check(client().initialized, 'initialize answered')

  -- Diagnostics as you type: a typo made through the buffer, which Neovim sends as didChange.
  local line, col = find(app, 'rules::LIMIT - taken')
  vim.api.nvim_buf_set_text(app, line, col + 7, line, col + 12, { 'LIMT' })
  local function codes(buf)
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(found, d.code)
    end
    return found
  end
  vim.wait(10000, function() return #vim.diagnostic.get(app) > 0 end, 10)
  local diags = vim.diagnostic.get(app)
  check(#diags == 1 and diags[1].code == 'E1001' and diags[1].lnum == line and diags[1].col == col + 7,
    'E1001 at the typo, published as it was typed', diags)
  check(diags[1] and diags[1].message:find('did you mean `LIMIT`', 1, true) ~= nil, 'the help is in the message', diags[1])
  vim.api.nvim_buf_set_text(app, line, col + 7, line, col + 11, { 'LIMIT' })
  vim.wait(10000, function() return #vim.diagnostic.get(app) == 0 end, 10)
  check(#vim.diagnostic.get(app) == 0, 'the diagnostic goes when the typo does', codes(app))

  -- Hover: a constant's computed value through the module alias.
  local hover = request(app, 'textDocument/hover', at(app, 'rules::LIMIT', 8))
  local shown = hover and hover.contents and hover.contents.value or ''
  check(shown:find('pub const LIMIT : u32 = 80', 1, true) ~= nil, 'hover shows the computed value', hover)

  -- Go to definition across `use`.
  local def = request(app, 'textDocument/definition', at(app, 'rules::LIMIT', 8))
  local target = def and (def.uri or (def[1] and def[1].uri)) or ''
  check(target == vim.uri_from_fname(rules_path), 'definition is in rules.t27', def)

  -- Completion after `rules::`, on a half-typed line.
  line, col = find(app, 'return rules::LIMIT - taken;')
  vim.api.nvim_buf_set_lines(app, line, line + 1, false, { '    return rules::' })
  local items = request(app, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(app) },
    position = { line = line, character = 18 },
  })
  local labels = {}
  for _, item in ipairs(items and (items.items or items) or {}) do
    labels[item.label] = true
  end
  check(labels.LIMIT and labels.admit and not labels.twice, 'completion offers the public names', labels)
  vim.cmd('silent! undo')
  vim.wait(200)

  -- Formatting, applied by the client to the buffer.
  line = find(app, 'return 0;')
  vim.api.nvim_buf_set_lines(app, line, line + 1, false, { 'return   0 ;' })
  local before = text(app)
  local edits = request(app, 'textDocument/formatting', {
    textDocument = { uri = vim.uri_from_bufnr(app) },
    options = { tabSize = 4, insertSpaces = true },
  })
  vim.lsp.util.apply_text_edits(edits or {}, app, 'utf-16')
  check(text(app) ~= before and vim.api.nvim_buf_get_lines(app, line, line + 1, false)[1] == '        return 0;',
    'formatting gives t27 fmt\'s layout', vim.api.nvim_buf_get_lines(app, line, line + 1, false))

  -- Rename across both modules, applied by the client as a workspace edit.
  local params = at(app, 'MAX_ITEMS', 2, find(app, 'if (taken'))
  params.newName = 'ITEM_CEILING'
  local edit = request(app, 'textDocument/rename', params)
  vim.lsp.util.apply_workspace_edit(edit or {}, 'utf-16')
  local rules = vim.fn.bufnr(rules_path)
  check(rules ~= -1 and not text(app):find('MAX_ITEMS', 1, true) and not text(rules):find('MAX_ITEMS', 1, true)
    and select(2, text(rules):gsub('ITEM_CEILING', '')) == 3,
    'rename changes both files', edit)
  vim.api.nvim_set_current_buf(rules)
  vim.lsp.buf_attach_client(rules, client_id)
  vim.wait(300)

  -- A code action from a warning's fix: `&&` in a file that writes `and`.
  line, col = find(rules, 'assert twice(2) == 4;')
  vim.api.nvim_buf_set_text(rules, line, col + 20, line, col + 20, { ' && admit(o)' })
  vim.wait(10000, function() return #vim.diagnostic.get(rules) > 0 end, 10)
  check(codes(rules)[1] == 'W0003', 'W0003 on the `&&`', codes(rules))
  local actions = request(rules, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(rules) },
    range = { start = { line = line, character = col + 21 }, ['end'] = { line = line, character = col + 23 } },
    context = { diagnostics = {} },
  })
  local quick = actions and actions[1]
  check(quick and quick.kind == 'quickfix', 'a quick fix is offered', actions)
  if quick then
    vim.lsp.util.apply_workspace_edit(quick.edit, 'utf-16')
  end
  check(vim.api.nvim_buf_get_lines(rules, line, line + 1, false)[1]:find('== 4 and admit(o);', 1, true) ~= nil,
    'the fix writes `and`', vim.api.nvim_buf_get_lines(rules, line, line + 1, false))
  vim.wait(10000, function() return #vim.diagnostic.get(rules) == 0 end, 10)
  check(#vim.diagnostic.get(rules) == 0, 'and the warning goes', codes(rules))

  -- The code lens of a test block, and its command run through the client.
  local lenses = request(rules, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(rules) } }) or {}
  check(#lenses == 2, 'a code lens per test block', lenses)
  local failing = lenses[2] and lenses[2].command
  local ran = failing and request(rules, 'workspace/executeCommand', { command = failing.command, arguments = failing.arguments })
  check(ran and ran.name == 'ShopRules::fails_on_purpose' and ran.passed == false and ran.report:find('left:  6', 1, true) ~= nil,
    'running the failing block shows its failure', ran)

  -- A clean end: `shutdown`, `exit`, and the server's exit code 0.
  client().stop()
  vim.wait(10000, function() return exit_code ~= nil end, 20)
  check(exit_code == 0, 'the server exits with 0 when asked to stop', exit_code)
end

local ok, err = pcall(main)
check(ok, 'the script ran to its end', err)
finish()
