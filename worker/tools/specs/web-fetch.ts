/** `web_fetch`: one public web page as readable text (http/https, public hosts only). */
import { z } from "zod";
import { defineToolSpec } from "./define";

/** Characters of page text handed to the model. */
export const WEB_TEXT_CHARS = 8000;
/** Largest body read (bytes). */
export const WEB_MAX_BYTES = 1024 * 1024;

/** The `web_fetch` tool. */
export const webFetchSpec = defineToolSpec({
  name: "web_fetch",
  title: { zh: "读取网页", en: "Fetch web page" },
  description:
    "Reads one public web page (http/https) as text: HTML reduced to readable text, also plain text, JSON, XML, CSV. The first 8,000 characters come back; a longer page is saved whole to the workspace (savedTo, read it with read_file). 1 MB and 15 s caps; private, loopback and local addresses are refused. Use for news, filings or docs the user points at.",
  input: z.object({
    url: z.string().min(1).max(2048).describe("absolute http(s) URL"),
  }),
  output: z.object({
    url: z.string(),
    finalUrl: z.string().describe("after redirects"),
    status: z.number().int(),
    contentType: z.string(),
    title: z.string().optional(),
    text: z.string(),
    totalChars: z.number().int(),
    truncated: z.boolean(),
    savedTo: z.string().optional().describe("workspace path of the whole text when truncated"),
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
