// The shape of the code: no function over 80 lines in src/ and web/, C++ as
// universal-ctags counts them (its end lines), JavaScript as TypeScript's
// parser finds them (functions, arrow functions, methods, accessors).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';

import { root } from './helpers.mjs';

const MAX_LINES = 80;
const ts = createRequire(import.meta.url)('typescript-5');

const tracked = (...patterns) =>
  execFileSync('git', ['ls-files', ...patterns], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

function longCppFunctions() {
  const files = tracked('src/*.cpp', 'src/*.hpp');
  const out = execFileSync('ctags', ['--fields=+ne', '--output-format=json', '-f', '-', ...files], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const long = [];
  for (const line of out.split('\n').filter(Boolean)) {
    const tag = JSON.parse(line);
    if (!['function', 'method'].includes(tag.kind) || tag.end === undefined) continue;
    const lines = tag.end - tag.line + 1;
    if (lines > MAX_LINES) long.push(`${tag.path}:${tag.line} ${tag.name} (${lines} lines)`);
  }
  return long;
}

function longJsFunctions() {
  const long = [];
  for (const file of tracked('src/*.js', 'src/*.cjs', 'web/*.js')) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > MAX_LINES) {
          const name = node.name ? node.name.getText(source) : '(anonymous)';
          long.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return long;
}

describe('the shape of the code', () => {
  it(`no C++ function in src/ over ${MAX_LINES} lines`, () => {
    assert.deepEqual(longCppFunctions(), []);
  });
  it(`no JavaScript function in src/ and web/ over ${MAX_LINES} lines`, () => {
    assert.deepEqual(longJsFunctions(), []);
  });
  it('finds long functions (a check that can fail)', () => {
    const text = `function f() {\n${'  x();\n'.repeat(MAX_LINES)}}\n`;
    const source = ts.createSourceFile('f.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const fn = source.statements[0];
    const lines =
      source.getLineAndCharacterOfPosition(fn.getEnd()).line -
      source.getLineAndCharacterOfPosition(fn.getStart(source)).line +
      1;
    assert.equal(lines, MAX_LINES + 2);
  });
});
