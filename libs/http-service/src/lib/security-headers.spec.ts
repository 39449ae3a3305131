import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineScriptHashes, webAppContentSecurityPolicy } from './security-headers';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const root = join(__dirname, '../../../..');

describe('the web apps’ Content-Security-Policy', () => {
  it('hashes each inline script exactly as the browser does (the text between the tags), skipping src scripts', () => {
    const html = '<script>\n  a();\n</script><script type="module" src="/assets/x.js"></script><SCRIPT data-x>b()</SCRIPT >';
    expect(inlineScriptHashes(html)).toEqual([sha256('\n  a();\n'), sha256('b()')]);
  });

  it.each(['apps/panel-web/index.html', 'apps/repo-monitor-web/index.html'])('%s: the colour-scheme script is allowed by its hash and nothing else inline', (file) => {
    const html = readFileSync(join(root, file), 'utf8');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(script).toContain('data-mantine-color-scheme');
    const policy = webAppContentSecurityPolicy(html);
    expect(policy).toContain(`script-src 'self' ${sha256(script ?? '')};`);
    // A changed script gets a different hash: the policy follows the page it is computed from.
    expect(webAppContentSecurityPolicy(html.replace('data-mantine-color-scheme', 'data-changed'))).not.toContain(sha256(script ?? ''));
    expect(policy).not.toMatch(/'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  });

  it('adds form targets and keeps every other directive', () => {
    const policy = webAppContentSecurityPolicy('<p></p>', { formActions: ['https://github.com'] });
    expect(policy).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; " +
        "worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self' https://github.com; frame-ancestors 'none'",
    );
  });
});
