#!/usr/bin/env node
// The browser of the conformance runs (EDDY_BROWSER for eddyctl): what a person's browser does
// when the authorization server signs them in without asking (the suite's mock approves every
// request): opens the authorization URL and follows each redirect, the last of which lands on
// eddyctl's loopback listener. It prints where it went without the query (which carries the
// authorization code). Exit code 0 when a page answered 200 at the end.
const start = process.argv[process.argv.length - 1];
const say = (line) => process.stderr.write(`browser: ${line}\n`);
const bare = (u) => { const x = new URL(u); return `${x.origin}${x.pathname}`; };

let url = start;
for (let hop = 0; hop < 10; hop++) {
    let r;
    try {
        r = await fetch(url, { redirect: 'manual' });
    } catch (e) {
        say(`GET ${bare(url)} failed: ${e.message}`);
        process.exit(1);
    }
    say(`GET ${bare(url)} -> ${r.status}`);
    const location = r.headers.get('location');
    if (r.status >= 300 && r.status < 400 && location) {
        url = new URL(location, url).toString();
        continue;
    }
    process.exit(r.status === 200 ? 0 : 1);
}
say('too many redirects');
process.exit(1);
