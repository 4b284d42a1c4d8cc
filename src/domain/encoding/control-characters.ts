/** C0 controls and DEL: a line feed or carriage return in a value would add lines to a crontab, YAML, XML or log. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** The first control character a value holds, as `U+000A`; undefined when it has none. */
export function controlCharacterIn(value: string): string | undefined {
  const hit = CONTROL_CHARACTER.exec(value);
  return hit ? `U+${hit[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

/** A value as one line: JSON string escapes, DEL (which JSON leaves raw) included. */
export function visibleText(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007f');
}

/** Text for a one-line message: as it is, or escaped when it holds a control character. */
export function printable(text: string): string {
  return controlCharacterIn(text) === undefined ? text : visibleText(text);
}
