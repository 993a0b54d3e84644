import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, render, screen } from "@testing-library/react";
import { ContentBlockView } from "./ContentBlockView";

afterEach(cleanup);

const resource = (uri: string, mimeType: string) => ({
  type: "resource",
  resource: { uri, mimeType, blob: Buffer.from("<script>alert(1)</script>").toString("base64") },
});

test("an embedded blob: an HTML blob named invoice.pdf.html is saved as text under a type nothing renders", () => {
  render(<ContentBlockView block={resource("file:///bills/invoice.pdf.html", "text/html")} />);
  const link = screen.getByRole("link", { name: /^Download invoice_pdf_html\.txt/ });
  assert.equal(link.getAttribute("download"), "invoice_pdf_html.txt");
  assert.match(link.getAttribute("href") ?? "", /^data:application\/octet-stream;base64,/);
});

test("an embedded blob: a passive type keeps its type and its one extension; no path in the name", () => {
  render(<ContentBlockView block={resource("file:///a/..%2F..%2Freport.pdf", "application/pdf")} />);
  const link = screen.getByRole("link", { name: /^Download report\.pdf/ });
  assert.equal(link.getAttribute("download"), "report.pdf");
  assert.match(link.getAttribute("href") ?? "", /^data:application\/pdf;base64,/);
});
