import { TEMPLATE_TAG, type TemplateVariable } from '../config/email-templates';

/**
 * A mail template with its `<%= NAME %>` tags replaced: plain substitution, nothing evaluated (the config
 * refuses any other tag). `escape` is applied to the values, so a user name cannot add markup to an HTML body.
 */
export const renderTemplate = (template: string, values: Partial<Record<TemplateVariable, string>>, escape: (value: string) => string = (value) => value): string =>
  template.replace(TEMPLATE_TAG, (_, name: string) => escape(values[name as TemplateVariable] ?? ''));
