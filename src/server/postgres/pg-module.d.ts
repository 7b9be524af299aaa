// `pg` ships no type declarations; pg-driver.ts types the parts it uses structurally.
declare module 'pg';
