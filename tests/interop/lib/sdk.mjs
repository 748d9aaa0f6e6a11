// Re-exports the pinned official packages so scripts outside tests/interop (bench/server/*.mjs)
// load exactly the versions in this folder's package-lock.json.
export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
