// Traps SIGTERM and ignores stdin EOF: only SIGKILL stops it.
process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\n'));
process.stdin.resume();
process.stdin.on('end', () => process.stderr.write('ignoring stdin EOF\n'));
process.stderr.write('ready\n');
setInterval(() => {}, 1000);
