import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Review workflows and stages on GraphQL as Strapi's content API has them: Shadow CRUD of the plugin's
 * two content-types, related both ways, behind their own permissions.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

interface Created {
  documentId: string;
}

test('workflows and their stages are written and read with their relations, by whom the roles let', async () => {
  const workflow = await server.gql<{ createReviewWorkflowsWorkflow: Created & { contentTypes: unknown } }>(
    'mutation($name: String) { createReviewWorkflowsWorkflow(data: { name: $name, contentTypes: ["api::article.article"] }) { documentId contentTypes } }',
    { name: 'Editorial' },
    server.asAdmin,
  );
  expect(workflow.body.errors).toBeUndefined();
  const workflowId = workflow.body.data!.createReviewWorkflowsWorkflow.documentId;
  expect(workflow.body.data!.createReviewWorkflowsWorkflow.contentTypes).toEqual(['api::article.article']);

  const stageIds: string[] = [];
  for (const name of ['Draft', 'In review']) {
    const stage = await server.gql<{ createReviewWorkflowsWorkflowStage: Created & { color: string } }>(
      'mutation($name: String, $workflow: ID) { createReviewWorkflowsWorkflowStage(data: { name: $name, workflow: $workflow }) { documentId color } }',
      { name, workflow: workflowId },
      server.asAdmin,
    );
    expect(stage.body.errors).toBeUndefined();
    expect(stage.body.data!.createReviewWorkflowsWorkflowStage.color).toBe('#4945FF');
    stageIds.push(stage.body.data!.createReviewWorkflowsWorkflowStage.documentId);
  }
  const updated = await server.gql(
    'mutation($id: ID!, $stage: ID) { updateReviewWorkflowsWorkflow(documentId: $id, data: { stageRequiredToPublish: $stage }) { documentId } }',
    { id: workflowId, stage: stageIds[1] },
    server.asAdmin,
  );
  expect(updated.body.errors).toBeUndefined();

  const read = await server.gql<{ reviewWorkflowsWorkflows: Array<{ name: string; stages: Array<{ name: string }>; stageRequiredToPublish: { name: string } }> }>(
    '{ reviewWorkflowsWorkflows(filters: { stages: { name: { eq: "In review" } } }) { name stages(sort: "name") { name } stageRequiredToPublish { name } } }',
    {},
    server.asAdmin,
  );
  expect(read.body.data).toEqual({ reviewWorkflowsWorkflows: [{ name: 'Editorial', stages: [{ name: 'Draft' }, { name: 'In review' }], stageRequiredToPublish: { name: 'In review' } }] });

  const duplicate = await server.gql('mutation { createReviewWorkflowsWorkflow(data: { name: "Editorial", contentTypes: [] }) { documentId } }', {}, server.asAdmin);
  expect(duplicate.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');

  const anonymous = await server.gql('{ reviewWorkflowsWorkflowStages { name } }');
  expect(anonymous.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  expect((await fetch(`${server.url}/api/review-workflows-workflows`)).status).toBe(404);
});
