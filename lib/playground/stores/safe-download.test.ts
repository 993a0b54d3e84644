import { test } from "node:test";
import assert from "node:assert/strict";
import { safeDownload } from "./safe-download.ts";

test("an active type is saved as its source, under a type nothing renders, with the real extension last", () => {
  assert.deepEqual(safeDownload("file:///tmp/invoice.pdf.html", "text/html"), {
    fileName: "invoice_pdf_html.txt",
    type: "application/octet-stream",
  });
  for (const mime of [
    "text/html; charset=utf-8",
    "TEXT/HTML",
    "image/svg+xml",
    "application/xhtml+xml",
    "application/javascript",
    "text/javascript",
    "text/xml",
  ])
    assert.deepEqual(safeDownload("res://a/page", mime), { fileName: "page.txt", type: "application/octet-stream" }, mime);
});

test("a passive type keeps its type and gets its one extension; unknown types are octet-stream .bin", () => {
  assert.deepEqual(safeDownload("https://x/docs/report.pdf", "application/pdf"), { fileName: "report.pdf", type: "application/pdf" });
  assert.deepEqual(safeDownload("https://x/docs/report.PDF", "application/pdf"), { fileName: "report.pdf", type: "application/pdf" });
  assert.deepEqual(safeDownload("https://x/setup.exe", "application/pdf"), { fileName: "setup_exe.pdf", type: "application/pdf" });
  assert.deepEqual(safeDownload("https://x/photo.jpeg", "image/jpeg"), { fileName: "photo_jpeg.jpg", type: "image/jpeg" });
  assert.deepEqual(safeDownload("https://x/tool.exe", "application/x-msdownload"), {
    fileName: "tool_exe.bin",
    type: "application/octet-stream",
  });
  assert.deepEqual(safeDownload("https://x/data", undefined), { fileName: "data.bin", type: "application/octet-stream" });
});

test("no path separators, control, bidi or reserved characters in the name; an empty name gets one", () => {
  assert.equal(safeDownload("file:///a/..%2F..%2F.bashrc", "text/plain").fileName, "bashrc.txt");
  assert.equal(safeDownload("file:///a/b%5C..%5Cevil.txt", "text/plain").fileName, "b____evil.txt");
  assert.equal(safeDownload("res://x/a%0Ab%00c", "text/plain").fileName, "a_b_c.txt");
  // "fdp.exe" reversed by U+202E would read "invoiceexe.pdf".
  assert.equal(safeDownload("res://x/invoice\u202Efdp.exe", "application/octet-stream").fileName, "invoice_fdp_exe.bin");
  assert.equal(safeDownload("res://x/a:b*c?d", "text/plain").fileName, "a_b_c.txt");
  assert.equal(safeDownload("res://x/", "text/plain").fileName, "resource.txt");
  assert.equal(safeDownload("res://x/...", "text/plain").fileName, "resource.txt");
  assert.equal(safeDownload("res://x/%E0%A4%A", "text/plain").fileName, "%E0%A4%A.txt");
  assert.equal(safeDownload("res://x/CON", "text/plain").fileName, "_CON.txt");
  assert.equal(safeDownload(`res://x/${"a".repeat(500)}`, "text/plain").fileName, `${"a".repeat(100)}.txt`);
  assert.equal(safeDownload("res://x/name?x=1#y", "text/plain").fileName, "name.txt");
});
