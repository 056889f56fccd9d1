// Minimal VS Code client for `tilescope lsp` (stdio). Python files only.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const cfg = vscode.workspace.getConfiguration("tilescope");
  const [command, ...args] = cfg.get("command", ["tilescope", "lsp"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [{ language: "python" }],
    initializationOptions: {
      executeModules: cfg.get("executeModules", false),
      debounceMs: cfg.get("debounceMs", 150),
    },
    synchronize: { configurationSection: "tilescope" },   // changes arrive as didChangeConfiguration
  };
  client = new LanguageClient("tilescope", "tilescope", serverOptions, clientOptions);
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
