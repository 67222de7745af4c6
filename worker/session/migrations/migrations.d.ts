// Types for drizzle-kit's generated durable-sqlite migration bundle (migrations.js).
declare const bundle: {
  journal: { entries: { idx: number; when: number; tag: string; breakpoints: boolean }[] };
  migrations: Record<string, string>;
};
export default bundle;
