import { renderTemplate } from '../../src/email/render-template';
import { escapeHtml } from '../../src/common/escape-html';
import { DEFAULT_EMAIL_TEMPLATES, templateProblem } from '../../src/config/email-templates';

/** The mail templates: `<%= NAME %>` substituted, nothing evaluated. */

describe('renderTemplate', () => {
  test("Strapi's default reset mail gets its link", () => {
    const text = renderTemplate(DEFAULT_EMAIL_TEMPLATES.resetPassword.message, { URL: 'https://front.example.com/reset', TOKEN: 'abc.123' });
    expect(text).toContain('<p>https://front.example.com/reset?code=abc.123</p>');
    expect(text).not.toContain('<%');
  });

  test('spacing inside a tag does not matter; a tag with no value becomes empty', () => {
    expect(renderTemplate('<%=USER.username%>|<%=   USER.email   %>|<%= URL %>', { 'USER.username': 'ann', 'USER.email': 'ann@example.com' })).toBe('ann|ann@example.com|');
  });

  test('values are put in as they are, never read as template text or code', () => {
    const values = { 'USER.username': '<%= TOKEN %> ${process.exit()} $& $1', TOKEN: 'secret' };
    expect(renderTemplate('Hi <%= USER.username %>', values)).toBe('Hi <%= TOKEN %> ${process.exit()} $& $1');
  });

  test('escapeHtml keeps a user name from adding markup to the HTML body', () => {
    expect(renderTemplate('<p><%= USER.username %></p>', { 'USER.username': '<img src=x onerror="alert(1)">&\'' }, escapeHtml)).toBe(
      '<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</p>',
    );
  });
});

describe('templateProblem', () => {
  test("Strapi's defaults and the known variables pass", () => {
    expect(templateProblem(DEFAULT_EMAIL_TEMPLATES.resetPassword.message)).toBeUndefined();
    expect(templateProblem(DEFAULT_EMAIL_TEMPLATES.emailConfirmation.message)).toBeUndefined();
    expect(templateProblem('<%= SERVER_URL %> <%= CODE %> <%= USER.email %> 100% sure <p>')).toBeUndefined();
  });

  test('code and unknown variables are named', () => {
    expect(templateProblem('<% process.exit() %>')).toBe('holds <% process.exit() %>: only <%= NAME %> tags are substituted, nothing is run');
    expect(templateProblem('<%- USER.username %>')).toMatch(/^holds <%- USER.username %>/);
    expect(templateProblem('<%= USER.password %>')).toBe('names USER.password, which is none of URL, SERVER_URL, CODE, TOKEN, USER.username, USER.email');
    expect(templateProblem('<%= ADMIN_URL %>')).toMatch(/^names ADMIN_URL/);
  });
});
