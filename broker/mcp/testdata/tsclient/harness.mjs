// harness.mjs drives an MCP server over stdio with the official TypeScript
// SDK's client (@modelcontextprotocol/sdk, pinned in package.json), the
// client the MCP Inspector and Gemini CLI use, and prints what that client
// makes of each answer as one JSON object on stdout.
//
// Usage: node harness.mjs SCENARIO.json
//
// The scenario: {"command": "...", "args": [...], "env": {...},
// "steps": [...]}, each step one of
//   {"op": "list"}                          tools/list (the client caches
//                                           the output schemas it validates
//                                           against, as Inspector does)
//   {"op": "call", "name": N, "arguments": A}  tools/call through
//                                           Client.callTool, which validates
//                                           structured content
//   {"op": "write", "path": P, "content": C}   write a file on disk, from
//                                           outside the server
// The output: {"server": {...}, "steps": [...]}, each step's entry with
// its op and name and either "result" (the CallToolResult as the client
// returned it), "tools" (a list's tools) or "error" ({"code", "message"}:
// what the client threw, e.g. -32602 when structured content does not
// match the tool's output schema).
import { readFileSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const scenario = JSON.parse(readFileSync(process.argv[2], "utf8"));
const transport = new StdioClientTransport({
  command: scenario.command,
  args: scenario.args ?? [],
  env: { ...process.env, ...(scenario.env ?? {}) },
  stderr: "inherit",
});
const client = new Client({ name: "devbroker-tsclient-test", version: "1" });
// Generous: the machine may be loaded; a timeout here is a failure the Go
// test reports, never a measurement.
const options = { timeout: 10 * 60 * 1000, resetTimeoutOnProgress: true };

const out = { steps: [] };
try {
  await client.connect(transport, options);
  out.server = client.getServerVersion();
  for (const step of scenario.steps) {
    const entry = { op: step.op, name: step.name };
    try {
      switch (step.op) {
        case "list":
          entry.tools = (await client.listTools(undefined, options)).tools;
          break;
        case "call":
          entry.result = await client.callTool({ name: step.name, arguments: step.arguments ?? {} }, undefined, options);
          break;
        case "write":
          writeFileSync(step.path, step.content);
          break;
        default:
          throw new Error(`unknown op ${step.op}`);
      }
    } catch (err) {
      entry.error = { code: err?.code ?? null, message: String(err?.message ?? err) };
    }
    out.steps.push(entry);
  }
} catch (err) {
  out.fatal = String(err?.stack ?? err);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + "\n");
