// The person's browser for the sign-in tests: node browser.mjs URL opens an authorization URL at
// the provider (provider.mjs), signs in as $EDDY_TEST_LOGIN on the provider's own login form
// (any password), accepts its consent form, and follows the redirect back to the client's
// loopback listener, as a browser does. Its cookies live in memory. Exits 0 once the client's
// listener answered, 1 (saying at which step, never a code or a token) otherwise.

const login = process.env.EDDY_TEST_LOGIN;
let url = process.argv[2];
if (!login || !url) {
    process.stderr.write('usage: EDDY_TEST_LOGIN=NAME node browser.mjs URL\n');
    process.exit(2);
}

const jar = new Map();
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
const keepCookies = (response) => {
    for (const line of response.headers.getSetCookie()) {
        const pair = line.split(';')[0];
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
};
const where = (u) => new URL(u).pathname; // never the query: it may hold a code

let form = null; // non-null: POST it to url
for (let step = 0; step < 20; ++step) {
    const options = { redirect: 'manual', headers: { cookie: cookieHeader() } };
    if (form !== null) {
        options.method = 'POST';
        options.headers['content-type'] = 'application/x-www-form-urlencoded';
        options.body = form;
    }
    form = null;
    let response;
    try {
        response = await fetch(url, options);
    } catch (e) {
        process.stderr.write(`browser: no answer from ${where(url)}: ${e.message}\n`);
        process.exit(1);
    }
    keepCookies(response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url).href;
        continue;
    }
    const body = await response.text();
    if (response.status === 200 && body.includes('name="prompt" value="login"')) {
        form = new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString();
    } else if (response.status === 200 && body.includes('name="prompt" value="consent"')) {
        form = 'prompt=consent';
    } else if (response.status === 200 && new URL(url).hostname === '127.0.0.1'
               && !url.startsWith(new URL(process.argv[2]).origin)) {
        // The client's loopback listener answered the redirect: the sign-in is done.
        process.exit(0);
    } else {
        process.stderr.write(`browser: unexpected HTTP ${response.status} at ${where(url)}\n`);
        process.exit(1);
    }
}
process.stderr.write('browser: no end after 20 steps\n');
process.exit(1);
