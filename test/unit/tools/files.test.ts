/** read_file / write_file / list_files over an in-memory workspace: jail, caps, CSV and XLSX previews. */
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { Workspace, WorkspaceFile } from "../../../worker/ports/workspace";
import { listFilesHandler } from "../../../worker/tools/handlers/list-files";
import { readFileHandler } from "../../../worker/tools/handlers/read-file";
import { writeFileHandler } from "../../../worker/tools/handlers/write-file";
import { fakeToolDeps } from "../../support/runtime-harness";

function memoryWorkspace(): Workspace {
  const store = new Map<string, WorkspaceFile>();
  return {
    get: async (u, p) => store.get(`${u}/${p}`) ?? null,
    put: async (u, path, bytes, contentType) => {
      const f = { path, size: bytes.byteLength, updatedAt: "2026-01-01T00:00:00.000Z", bytes, contentType };
      store.set(`${u}/${path}`, f);
      return { path, size: f.size, updatedAt: f.updatedAt };
    },
    list: async (u, prefix, limit) => {
      const all = [...store.keys()].filter((k) => k.startsWith(`${u}/${prefix}`)).sort();
      const files = all.slice(0, limit).map((k) => {
        const { path, size, updatedAt } = store.get(k) as WorkspaceFile;
        return { path, size, updatedAt };
      });
      return { files, truncated: all.length > limit };
    },
  };
}

const ctx = (userId = "u1") => ({ sessionId: "s", userId, toolCallId: "c", signal: new AbortController().signal });

function xlsx(rows: (string | number)[][]): Uint8Array {
  const strings: string[] = [];
  const sheetRows = rows
    .map((r, i) => {
      const cells = r
        .map((v, j) => {
          const ref = `${String.fromCharCode(65 + j)}${i + 1}`;
          if (typeof v === "number") return `<c r="${ref}"><v>${v}</v></c>`;
          strings.push(v);
          return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
        })
        .join("");
      return `<row r="${i + 1}">${cells}</row>`;
    })
    .join("");
  return zipSync({
    "xl/workbook.xml": strToU8('<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    "xl/_rels/workbook.xml.rels": strToU8(
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    "xl/sharedStrings.xml": strToU8(
      `<sst>${strings.map((s) => `<si><t>${s.replace(/&/g, "&amp;")}</t></si>`).join("")}</sst>`,
    ),
    "xl/worksheets/sheet1.xml": strToU8(`<worksheet><sheetData>${sheetRows}</sheetData></worksheet>`),
  });
}

describe("workspace tools", () => {
  it("writes, lists and reads text back from an offset, per user", async () => {
    const deps = fakeToolDeps({ files: memoryWorkspace() });
    const w = await writeFileHandler({ path: "notes/a.md", content: "hello world" }, deps, ctx());
    expect(w).toMatchObject({ ok: true, value: { path: "notes/a.md", size: 11, replaced: false } });
    const again = await writeFileHandler({ path: "notes/a.md", content: "hello again" }, deps, ctx());
    expect(again).toMatchObject({ ok: true, value: { replaced: true } });
    const listed = await listFilesHandler({ folder: "notes", limit: 10 }, deps, ctx());
    expect(listed).toMatchObject({ ok: true, value: { files: [{ path: "notes/a.md", size: 11 }] } });
    const read = await readFileHandler({ path: "notes/a.md", offset: 6, maxChars: 3 }, deps, ctx());
    expect(read).toMatchObject({ ok: true, value: { kind: "text", text: "aga", totalChars: 11, truncated: true } });
    const other = await readFileHandler({ path: "notes/a.md", offset: 0, maxChars: 10 }, deps, ctx("u2"));
    expect(other.ok ? "" : other.error.code).toBe("not_found");
  });

  it("refuses traversal, absolute and encoded paths in every tool", async () => {
    const deps = fakeToolDeps({ files: memoryWorkspace() });
    for (const path of ["../x", "/etc/passwd", "%2e%2e%2fx", "a\\..\\b", "a\u0000b"]) {
      const w = await writeFileHandler({ path, content: "x" }, deps, ctx());
      const r = await readFileHandler({ path, offset: 0, maxChars: 10 }, deps, ctx());
      expect(w.ok ? "" : w.error.code, path).toBe("invalid_input");
      expect(r.ok ? "" : r.error.code, path).toBe("invalid_input");
    }
    const l = await listFilesHandler({ folder: "../", limit: 10 }, deps, ctx());
    expect(l.ok).toBe(false);
  });

  it("caps files at 2 MB", async () => {
    const deps = fakeToolDeps({ files: memoryWorkspace() });
    const r = await writeFileHandler({ path: "big.txt", content: "é".repeat(1024 * 1024 + 1) }, deps, ctx());
    expect(r.ok ? "" : r.error.code).toBe("payload_too_large");
  });

  it("previews 50 rows of a CSV with the total count", async () => {
    const deps = fakeToolDeps({ files: memoryWorkspace() });
    const csv = ["code,name", ...Array.from({ length: 120 }, (_, i) => `${600000 + i},"Name, ${i}"`)].join("\n");
    await writeFileHandler({ path: "list.csv", content: csv }, deps, ctx());
    const r = await readFileHandler({ path: "list.csv", offset: 0, maxChars: 100 }, deps, ctx());
    expect(r).toMatchObject({ ok: true, value: { kind: "csv", totalRows: 121, truncated: true } });
    if (r.ok) {
      expect(r.value.rows).toHaveLength(50);
      expect(r.value.rows?.[1]).toEqual(["600000", "Name, 0"]);
    }
  });

  it("previews 50 rows of an XLSX (shared strings, numbers, sparse cells)", async () => {
    const files = memoryWorkspace();
    const deps = fakeToolDeps({ files });
    const rows: (string | number)[][] = [
      ["code", "name", "close"],
      ...Array.from({ length: 70 }, (_, i) => [`SIM.${i}`, `A&B ${i}`, 10 + i]),
    ];
    await files.put("u1", "book.xlsx", xlsx(rows), "application/octet-stream");
    const r = await readFileHandler({ path: "book.xlsx", offset: 0, maxChars: 100 }, deps, ctx());
    expect(r).toMatchObject({ ok: true, value: { kind: "xlsx", totalRows: 71, truncated: true } });
    if (r.ok) {
      expect(r.value.rows).toHaveLength(50);
      expect(r.value.rows?.[0]).toEqual(["code", "name", "close"]);
      expect(r.value.rows?.[2]).toEqual(["SIM.1", "A&B 1", "11"]);
    }
    await files.put("u1", "bad.xlsx", strToU8("not a zip"), "application/octet-stream");
    const bad = await readFileHandler({ path: "bad.xlsx", offset: 0, maxChars: 100 }, deps, ctx());
    expect(bad.ok ? "" : bad.error.message).toMatch(/not a readable XLSX/);
  });
});
