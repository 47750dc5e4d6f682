// The namespaces a user added per context (the namespace picker's typed names), kept in
// namespaces.json in the app's data directory: { "context name": ["payments", "shop"] }. Read once
// when a context opens (a few bytes); written in the background, each write after the previous one,
// through a temporary file and a rename, so a crash never leaves half a file.
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { NamespaceListStore } from '../bridge/namespace-access';

type NamespaceLists = Record<string, string[]>;

export class NamespaceListFile {
  readonly file: string;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    directory: string,
    private readonly log: (message: string) => void,
  ) {
    this.file = join(directory, 'namespaces.json');
  }

  /** The store for one context. */
  forContext(context: string): NamespaceListStore {
    return {
      load: () => this.read()[context] ?? [],
      save: (namespaces) => {
        this.writing = this.writing.then(() => this.write(context, namespaces));
      },
    };
  }

  /** Resolves once every save so far is on disk (or has failed and been logged). */
  flushed(): Promise<void> {
    return this.writing;
  }

  private read(): NamespaceLists {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      const lists: NamespaceLists = {};
      for (const [context, names] of Object.entries(parsed))
        if (Array.isArray(names)) lists[context] = names.filter((name) => typeof name === 'string');
      return lists;
    } catch (error) {
      this.log(`kubetide: ignoring ${this.file}: ${(error as Error).message}`);
      return {};
    }
  }

  private async write(context: string, namespaces: readonly string[]): Promise<void> {
    const lists = this.read();
    if (namespaces.length > 0) lists[context] = [...namespaces];
    else delete lists[context];
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      // Beside the recordings, private as they are (see private-files.ts).
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFile(temporary, `${JSON.stringify(lists, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, this.file);
    } catch (error) {
      this.log(`kubetide: cannot save the namespace list to ${this.file}: ${(error as Error).message}`);
    }
  }
}
