// Reads stdin but never answers anything (so a handshake waits forever), prints `running <pid>`
// on stderr once it runs, and ignores stdin EOF and SIGTERM: only SIGKILL stops it, so a client
// that closes it politely spends its whole close budget.
process.on('SIGTERM', () => {});
process.stdin.on('data', () => {});
process.stdin.on('end', () => {});
process.stderr.write(`running ${process.pid}\n`);
setInterval(() => {}, 1000);
