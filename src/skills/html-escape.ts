const replacements: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes `&`, `<`, `>`, `"` and `'` for HTML/XML text (as Ruby's `ERB::Util.html_escape`). */
export function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => replacements[character]!);
}
