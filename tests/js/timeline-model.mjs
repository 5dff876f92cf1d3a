// The timeline's model for the tests: the exported document's calls.

// Per profile, the calls in event order with depth, frame and ns from the
// origin (the document's `at` times 1e9, rounded: exact for these runs).
export function modelOf(doc) {
  return doc.profiles.map((p) => {
    const calls = [];
    const stack = [];
    for (const ev of p.events) {
      const ns = Math.round(ev.at * 1e9);
      if (ev.type === 'O') {
        const call = {
          s: ns,
          e: 0,
          depth: stack.length,
          frame: ev.frame,
          self: 0,
          at: ev.at,
          parent: stack.at(-1) ?? null,
        };
        calls.push(call);
        stack.push(call);
      } else {
        const call = stack.pop();
        call.e = ns;
        call.closeAt = ev.at;
      }
    }
    for (const c of calls) c.self = c.e - c.s;
    for (const c of calls) if (c.parent) c.parent.self -= c.e - c.s;
    return { name: p.name, rank: Number(/^rank (-?\d+)/.exec(p.name)[1]), calls };
  });
}
