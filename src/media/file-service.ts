import type { Filter, SortSpec, Store, StoredDocument } from '../storage/types';
import { createDocumentId } from '../documents/document-id';
import { bytesToKilobytes, FILES_COLLECTION, FILES_SEQUENCE, storedNameOf, URL_PREFIX, type FileRow, type ImageFormats } from './file-record';
import type { FileInfo } from './file-info';
import { formatOwnersFilter, formatsByStoredName, type ImageFormatter } from './image-formats';
import type { UploadProvider } from './upload-provider';
import type { ReceivedFile } from './receive-form';

/**
 * File records in the `files` collection and the stored files they describe (each file and its
 * image formats), kept in step: a record is written only for files the provider has stored whole,
 * and its files are removed with it.
 */

export interface FileQuery {
  filter?: Filter;
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface FileService {
  /** one record per received file, `infos[i]` describing `files[i]`, in one transaction */
  create(files: ReceivedFile[], infos: FileInfo[]): Promise<FileRow[]>;
  /** new content under the same URL, as Strapi replaces (hash and extension are kept) */
  replace(row: FileRow, file: ReceivedFile, info: FileInfo): Promise<FileRow>;
  updateInfo(row: FileRow, info: FileInfo): Promise<FileRow>;
  /** the record is removed after its files, so a failure leaves a record to retry with */
  remove(row: FileRow): Promise<void>;
  /** the type of a stored file that a record names, as its file or as one of its formats; null when none does */
  storedFileType(storedName: string): Promise<string | null>;
  findById(id: number): Promise<FileRow | null>;
  findOne(filter: Filter): Promise<FileRow | null>;
  find(query: FileQuery): Promise<FileRow[]>;
  count(filter: Filter): Promise<number>;
}

/** Numeric ids as they arrive in paths, query strings and GraphQL `ID`s; null for anything else. */
export const parseFileId = (value: unknown): number | null => {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^\d{1,15}$/.test(text) ? Number(text) : null;
};

/** Null keeps the current value, as in Strapi (a client clears a text with an empty string). */
const infoValues = (info: FileInfo, current?: FileRow): Pick<FileRow, 'alternativeText' | 'caption'> => ({
  alternativeText: info.alternativeText ?? current?.alternativeText ?? null,
  caption: info.caption ?? current?.caption ?? null,
});

export const createFileService = (store: Store, provider: UploadProvider, images: ImageFormatter): FileService => {
  const collection = store.collection(FILES_COLLECTION);
  const asRow = (document: StoredDocument | null): FileRow | null => document as FileRow | null;

  const newRow = async (file: ReceivedFile, info: FileInfo, formats: ImageFormats | null, now: string): Promise<FileRow> => ({
    id: await store.nextSequence(FILES_SEQUENCE),
    documentId: createDocumentId(),
    name: info.name ?? file.name,
    ...infoValues(info),
    focalPoint: null,
    width: file.width,
    height: file.height,
    formats,
    hash: file.hash,
    ext: file.ext,
    mime: file.mime,
    size: bytesToKilobytes(file.bytes),
    url: `${URL_PREFIX}${storedNameOf(file)}`,
    previewUrl: null,
    provider: provider.name,
    provider_metadata: null,
    createdAt: now,
    updatedAt: now,
    publishedAt: now,
  });

  const findOne = async (filter: Filter) => asRow(await collection.findOne(filter));

  const update = async (row: FileRow, values: Partial<FileRow>): Promise<FileRow> => {
    const changes = { ...values, updatedAt: new Date().toISOString() };
    await collection.updateOne({ id: row.id }, { $set: changes });
    return { ...row, ...changes };
  };

  return {
    create: async (files, infos) => {
      // Made before the transaction, which resizing would hold open for seconds; one file at a time bounds the memory sharp uses.
      const formats: Array<ImageFormats | null> = [];
      try {
        for (const [index, file] of files.entries()) {
          formats.push(await images.generate({ ...file, name: infos[index]?.name ?? file.name }));
          await provider.store(storedNameOf(file));
        }
        return await store.transaction(async () => {
          const now = new Date().toISOString();
          const rows: FileRow[] = [];
          for (const [index, file] of files.entries()) rows.push(await newRow(file, infos[index] ?? {}, formats[index], now));
          await collection.insertMany(rows);
          return rows;
        });
      } catch (error) {
        // The caller removes the files it received; their formats are this service's.
        await Promise.all(formats.map((entry) => images.remove(entry)));
        throw error;
      }
    },
    replace: async (row, file, info) => {
      await provider.workspace.rename(storedNameOf(file), storedNameOf(row));
      // As Strapi: the old formats go, and the new ones keep the record's hash and extension, so their URLs stay the same too.
      await images.remove(row.formats);
      const name = info.name ?? file.name;
      const formats = await images.generate({ name, hash: row.hash, ext: row.ext, mime: file.mime });
      await provider.store(storedNameOf(row));
      return update(row, {
        name,
        ...infoValues(info, row),
        width: file.width,
        height: file.height,
        formats,
        mime: file.mime,
        size: bytesToKilobytes(file.bytes),
      });
    },
    updateInfo: (row, info) => update(row, { name: info.name ?? row.name, ...infoValues(info, row) }),
    remove: async (row) => {
      await provider.remove(storedNameOf(row));
      await images.remove(row.formats);
      await collection.deleteOne({ id: row.id });
    },
    storedFileType: async (storedName) => {
      const own = await findOne({ url: `${URL_PREFIX}${storedName}` });
      if (own) return own.mime;
      const owners = await collection.find(formatOwnersFilter([storedName]), { projection: ['formats'] });
      return formatsByStoredName(owners).get(storedName)?.mime ?? null;
    },
    findById: (id) => findOne({ id }),
    findOne,
    find: async ({ filter = {}, sort = [], skip, limit }) =>
      (await collection.find(filter, { sort: sort.length > 0 ? sort : [['id', 1]], skip, limit })) as FileRow[],
    count: (filter) => collection.countDocuments(filter),
  };
};
