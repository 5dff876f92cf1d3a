// The documentation: README.md (the front door) and docs/*.md. Every
// Markdown link and image resolves: a relative target is a file (or folder)
// of the repository, a #anchor is a heading of the page it names (GitHub's
// slugs), an http(s) URL is well formed (not fetched: the suite runs
// offline). The README stays short, starts with the two commands and links
// to every page of docs/; dated measurements live in docs/benchmarks.md only.
// Needs no build (no import of helpers.mjs, which wants dist/).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const docsDir = path.join(root, 'docs');

// The pages of docs/ the README's documentation list must name.
const PAGES = [
  'command-line',
  'package-api',
  'web-page',
  'offline',
  'architecture',
  'engine-protocol',
  'building',
  'reliability',
  'benchmarks',
];
const README_MAX_LINES = 300;
const TWO_COMMANDS = [
  '```sh',
  'npm start   # installs what is missing, builds, serves the page on http://127.0.0.1:8080/ (prints the URL)',
  'npm test    # builds and runs every test: GoogleTest (ctest), node --test, the page in headless Chromium',
  '```',
].join('\n');

const rel = (file) => path.relative(root, file);
const read = (file) => fs.readFileSync(file, 'utf8');
const markdownFiles = () => [
  path.join(root, 'README.md'),
  ...fs
    .readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join(docsDir, f)),
];

// The text with fenced code blocks and inline code spans blanked (same
// length, newlines kept), so that line numbers still hold and nothing in code
// is taken for a link or a heading.
function withoutCode(text) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  const lines = text.split('\n');
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^ {0,3}(`{3,}|~{3,})/);
    if (fence) {
      if (
        open &&
        open[1][0] === fence[0] &&
        open[1].length >= fence.length &&
        !lines[i].trim().slice(open[1].length).trim()
      )
        fence = null;
      lines[i] = blank(lines[i]);
    } else if (open) {
      fence = open[1];
      lines[i] = blank(lines[i]);
    }
  }
  // Inline code: a run of backticks up to the same run; its content blanked
  // to 'x' so that link text made of code ([`x`](target)) is still a link.
  return lines
    .join('\n')
    .replace(/(`+)([^`][^]*?)\1(?!`)/g, (m, ticks, body) => ticks + body.replace(/[^\n]/g, 'x') + ticks);
}

// GitHub's heading anchors: lower case, punctuation dropped except '-' and
// '_', each space a '-'; a repeated slug gets -1, -2, ...
export function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading: its text
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map();
// The anchors of a Markdown file's headings (ATX, outside code blocks).
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  const raw = read(file).split('\n');
  const coded = withoutCode(read(file)).split('\n');
  for (let i = 0; i < raw.length; i++) {
    if (!/^ {0,3}#{1,6}\s/.test(coded[i])) continue; // a heading line (not inside a code block)
    const text = raw[i].replace(/^ {0,3}#{1,6}\s+/, '').replace(/\s+#+\s*$/, '');
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

// Every link and image of a file: { line, text, target, image }.
function linksOf(file) {
  const text = withoutCode(read(file));
  const raw = read(file);
  const links = [];
  const lineAt = (offset) => raw.slice(0, offset).split('\n').length;
  // [text](target) and ![alt](target), optionally with a "title"; the
  // target read from the raw text (blanking never touches it: code spans
  // inside a target would make no sense).
  for (const m of text.matchAll(/(!?)\[([^\]]*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
    const target = raw
      .slice(m.index, m.index + m[0].length)
      .match(/\]\(\s*(<[^>]*>|[^)\s]*)/)[1]
      .replace(/^<|>$/g, '');
    links.push({ line: lineAt(m.index), text: m[2].replace(/\s+/g, ' '), target, image: m[1] === '!' });
  }
  // Autolinks: <https://...>.
  for (const m of text.matchAll(/<(https?:[^>\s]*)>/g))
    links.push({ line: lineAt(m.index), text: m[1], target: m[1], image: false });
  // Reference definitions: [label]: target.
  for (const m of text.matchAll(/^ {0,3}\[([^\]]+)\]:\s*(\S+)/gm))
    links.push({ line: lineAt(m.index), text: m[1], target: m[2], image: false });
  return links;
}

// Why a link does not resolve, or null. (base: the repository.)
function problemOf(file, link, base = root) {
  const { target } = link;
  if (target === '') return 'an empty target';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (!/^https?:/i.test(target))
      return /^mailto:/i.test(target) ? null : `a link to ${target.split(':')[0]}: (only http(s) and relative links)`;
    let url;
    try {
      url = new URL(target);
    } catch {
      return 'not a well-formed URL';
    }
    if (!url.hostname.includes('.') && url.hostname !== 'localhost' && !/^\d+\.\d+\.\d+\.\d+$/.test(url.hostname))
      return `not a well-formed URL (host ${url.hostname})`;
    if (/\s/.test(target)) return 'a URL with a space';
    return null;
  }
  if (target.startsWith('/')) return 'an absolute path (GitHub resolves it to the site root; write a relative one)';
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
  if (path.relative(base, resolved).startsWith('..')) return 'a path outside the repository';
  if (!fs.existsSync(resolved)) return `${rel(resolved)} does not exist`;
  if (link.image && !fs.statSync(resolved).isFile()) return `${rel(resolved)} is not a file`;
  if (anchor !== null) {
    if (!resolved.endsWith('.md') || !fs.statSync(resolved).isFile())
      return `#${anchor} on a file that is not Markdown`;
    if (!anchorsOf(resolved).has(anchor)) {
      return `${rel(resolved)} has no heading #${anchor} (its anchors: ${[...anchorsOf(resolved)].join(', ')})`;
    }
  }
  return null;
}

describe('documentation', () => {
  it('GitHub slugs as the docs rely on them', () => {
    assert.equal(slug('One file: `scope-speedscope.html`'), 'one-file-scope-speedscopehtml');
    assert.equal(slug("Large runs: the viewer's budget"), 'large-runs-the-viewers-budget');
    assert.equal(slug('The timeline (the first view)'), 'the-timeline-the-first-view');
    assert.equal(slug('From npx: `view` and `serve`'), 'from-npx-view-and-serve');
    assert.equal(slug('Layout of `dist/web/`'), 'layout-of-distweb');
    assert.equal(slug('What the builds make, and the tests'), 'what-the-builds-make-and-the-tests');
    assert.equal(slug('snake_case & co'), 'snake_case--co');
  });

  it('the link checker sees links, skips code and flags what does not resolve', () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'scope-speedscope-docs-'));
    try {
      fs.mkdirSync(path.join(dir, 'docs', 'images'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'docs', 'images', 'pic.png'), '');
      fs.writeFileSync(path.join(dir, 'README.md'), '# Readme\n\n## Size of the wasm\n');
      const file = path.join(dir, 'docs', 'page.md');
      fs.writeFileSync(
        file,
        [
          '# Title',
          '',
          '## Same',
          '',
          '## Same',
          '',
          '[ok](#title) [dup](#same-1) [bad](#nope) [missing](missing.md) [up](../README.md#size-of-the-wasm)',
          '`[not a link](nowhere.md)`',
          '```',
          '[in a block](nowhere.md)',
          '# not a heading',
          '```',
          '![pic](images/pic.png) [web](https://example.org/x) [bad url](https://exa mple) [host](https://nohost/x)',
          '[out](../../elsewhere.md) [abs](/README.md) [dir as image](images)',
          '',
        ].join('\n'),
      );
      const got = linksOf(file).map((l) => [l.line, l.target, problemOf(file, l, dir) === null]);
      assert.deepEqual(got, [
        [7, '#title', true],
        [7, '#same-1', true],
        [7, '#nope', false],
        [7, 'missing.md', false],
        [7, '../README.md#size-of-the-wasm', true],
        [13, 'images/pic.png', true],
        [13, 'https://example.org/x', true],
        [13, 'https://nohost/x', false],
        [14, '../../elsewhere.md', false],
        [14, '/README.md', false],
        [14, 'images', true],
      ]);
      // "[bad url](https://exa mple)" is no link at all (a space ends a target); it must not hide a link either.
      assert.equal(anchorsOf(file).has('not-a-heading'), false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every link and image of README.md and docs/*.md resolves', () => {
    const problems = [];
    let count = 0;
    for (const file of markdownFiles()) {
      for (const link of linksOf(file)) {
        count++;
        const problem = problemOf(file, link);
        if (problem) problems.push(`${rel(file)}:${link.line}: [${link.text}](${link.target}): ${problem}`);
      }
    }
    assert.ok(count > 50, `only ${count} links found: the checker is broken`);
    assert.deepEqual(problems, [], `links that do not resolve:\n${problems.join('\n')}`);
  });

  it('the README is the front door: short, the two commands first, a link to every page of docs/', () => {
    const readme = read(path.join(root, 'README.md'));
    const lines = readme.replace(/\n$/, '').split('\n').length;
    assert.ok(
      lines <= README_MAX_LINES,
      `README.md has ${lines} lines; at most ${README_MAX_LINES} (move the rest to docs/)`,
    );
    assert.ok(readme.includes('npm start'), 'README.md names npm start');
    assert.ok(readme.includes('npm test'), 'README.md names npm test');
    const commands = readme.indexOf(TWO_COMMANDS);
    assert.ok(commands >= 0, `README.md shows the two commands as:\n${TWO_COMMANDS}`);
    const firstSection = readme.search(/^## /m);
    assert.ok(firstSection < 0 || commands < firstSection, 'README.md: the two commands come before the first section');
    const pages = fs
      .readdirSync(docsDir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.replace(/\.md$/, ''));
    for (const page of PAGES) assert.ok(pages.includes(page), `docs/${page}.md is missing`);
    const linked = new Set(linksOf(path.join(root, 'README.md')).map((l) => l.target.split('#')[0]));
    for (const page of pages) assert.ok(linked.has(`docs/${page}.md`), `README.md does not link to docs/${page}.md`);
  });

  it('every page of docs/ starts with a title and a line saying what it holds', () => {
    for (const file of markdownFiles().slice(1)) {
      const [title, blank, intro] = read(file).split('\n');
      assert.match(title, /^# \S/, `${rel(file)}:1: a "# " title`);
      assert.equal(blank, '', `${rel(file)}:2: a blank line after the title`);
      assert.match(intro, /^[A-Z`]/, `${rel(file)}:3: a short intro line`);
    }
  });

  it('dated measurements live in docs/benchmarks.md only', () => {
    const dated = [];
    for (const file of markdownFiles().filter((f) => f !== path.join(docsDir, 'benchmarks.md'))) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          const m = line.match(/\b20\d\d-[01]\d-[0-3]\d\b/);
          if (m) dated.push(`${rel(file)}:${i + 1}: ${m[0]}: ${line.trim().slice(0, 120)}`);
        });
    }
    assert.deepEqual(dated, [], `dates outside docs/benchmarks.md (move the measurement there):\n${dated.join('\n')}`);
  });

  it('the screenshots live in docs/images/, and nothing points at web/docs/', () => {
    for (const image of ['timeline-1400.png', 'timeline-390.png']) {
      assert.ok(fs.existsSync(path.join(docsDir, 'images', image)), `docs/images/${image}`);
    }
    for (const file of markdownFiles())
      assert.doesNotMatch(read(file), /web\/docs\//, `${rel(file)} points at web/docs/`);
  });
});
