// Node 20 lacks fs.globSync (added in Node 22), which @modelcontextprotocol/conformance imports by
// name; only its `tier-check` command calls it. Registered with `node --import`, this hook gives
// the suite an `fs` that has every real export plus a globSync that answers "no files". On Node 22
// and later it does nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
    const shim = 'data:text/javascript,'
        + encodeURIComponent("export * from 'node:fs'; export { default } from 'node:fs'; "
                             + 'export function globSync() { return []; }');
    const hooks = 'data:text/javascript,' + encodeURIComponent(`
        export async function resolve(specifier, context, next) {
            if ((specifier === 'fs' || specifier === 'node:fs')
                && context.parentURL && context.parentURL.includes('/@modelcontextprotocol/conformance/'))
                return { url: ${JSON.stringify(shim)}, shortCircuit: true };
            return next(specifier, context);
        }`);
    register(hooks);
}
