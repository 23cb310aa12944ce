import type { ScalarAttributeType } from './types';

/**
 * Custom fields (`"type": "customField", "customField": "plugin::…"`) are stored as an underlying
 * Strapi type: the well-known ones are mapped here, a project maps others in `config/plugins`
 * (`'custom-fields': { config: { '<uid>': '<type>' } }`), and an unknown one is served as JSON, so
 * no value is lost, with one warning naming how to map it.
 */

export type CustomFieldTypes = Readonly<Record<string, ScalarAttributeType>>;

export const WELL_KNOWN_CUSTOM_FIELDS: CustomFieldTypes = {
  // CKEditor 5 (Strapi 4 and 5 plugins): HTML
  'plugin::ckeditor.CKEditor': 'richtext',
  'plugin::ckeditor5.CKEditor': 'richtext',
  // other rich text editors
  'plugin::strapi-plugin-tiptap-editor.tiptap': 'richtext',
  'plugin::tinymce.tinymce': 'richtext',
  'plugin::wysiwyg.wysiwyg': 'richtext',
  // Strapi's color picker and its ports: "#rrggbb"
  'plugin::color-picker.color': 'string',
  'plugin::strapi-plugin-color-picker.color': 'string',
  // pickers of one value
  'plugin::country-select.country': 'string',
  'plugin::strapi-plugin-iconhub.iconhub': 'string',
  // pickers of several values, or of structured ones
  'plugin::multi-select.multi-select': 'json',
  'plugin::google-maps.location-picker': 'json',
  'plugin::strapi-leaflet-geoman.geojson': 'json',
};

export interface CustomFieldOptions {
  /** a project's own mappings, over the well-known ones */
  types?: CustomFieldTypes;
  /** told once per unknown custom field */
  warn?: (message: string) => void;
}

export const customFieldType = (uid: string, options: CustomFieldOptions): ScalarAttributeType | undefined =>
  options.types?.[uid] ?? WELL_KNOWN_CUSTOM_FIELDS[uid];
