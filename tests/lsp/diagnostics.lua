-- Neovim (0.7 and later) started on a broker file with `kafkalint server` as its language
-- server: writes what vim.diagnostic.get() has for the buffer to $KAFKALINT_NVIM_OUT, one line a
-- diagnostic, `lnum:col:end_lnum:end_col severity code message`, columns in bytes. Only API
-- Neovim 0.7 has (vim.lsp.start came in 0.8).
local out = os.getenv("KAFKALINT_NVIM_OUT")
local client_id = vim.lsp.start_client({
  name = "kafkalint",
  cmd = { os.getenv("KAFKALINT"), "server" },
  root_dir = vim.fn.expand("%:p:h"),
})
local lines = {}
if client_id == nil then
  table.insert(lines, "error: the client did not start")
else
  vim.lsp.buf_attach_client(0, client_id)
  local found = vim.wait(120000, function()
    return #vim.diagnostic.get(0) > 0
  end, 50)
  if not found then
    table.insert(lines, "error: no diagnostics")
  end
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local code = d.code
    if code == nil and d.user_data and d.user_data.lsp then
      code = d.user_data.lsp.code
    end
    local message = vim.split(d.message, "\n")[1]
    table.insert(lines, string.format("%d:%d:%d:%d %d %s %s",
      d.lnum, d.col, d.end_lnum, d.end_col, d.severity, tostring(code), message))
  end
  table.sort(lines)
  vim.lsp.stop_client(client_id)
end
vim.fn.writefile(lines, out)
vim.cmd("qall!")
