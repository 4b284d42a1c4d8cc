/** Directory and base name of a path written with / or \ (use cases may not import node:path). */
export function splitPath(path: string): { dir: string; base: string } {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? { dir: '.', base: path } : { dir: cut === 0 ? path.slice(0, 1) : path.slice(0, cut), base: path.slice(cut + 1) };
}
