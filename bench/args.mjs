// The command line of a benchmark script: its one positional argument (the
// file or run it measures) and its `--name value` options.
//   const { file, opt } = benchArgs('node bench/x.mjs FILE [--width 1600]');
//   opt('--width', '1600')  the value after --width, else the fallback
// With a usage text, a missing positional prints it and exits 2; with null,
// none is asked for (file is then undefined when absent).
export function benchArgs(usage, argv = process.argv.slice(2)) {
  const opt = (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const file = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (usage && !file) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return { args: argv, opt, file };
}
