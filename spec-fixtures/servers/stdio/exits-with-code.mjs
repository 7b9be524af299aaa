// Writes two stderr lines, then exits with the code given as argv[2] (default 1) after argv[3] ms (default 0).
process.stderr.write('fatal: could not open database\n');
process.stderr.write('giving up\n');
setTimeout(() => process.exit(Number(process.argv[2] ?? 1)), Number(process.argv[3] ?? 0));
