import type { ContentType } from '../../models/types';
import type { FolioModule, FolioModuleFactory } from '../folio-module';

/**
 * Review workflows and their stages, as Strapi 5's review-workflows plugin declares them: content-types
 * served by Shadow CRUD on GraphQL (`reviewWorkflowsWorkflows`, `createReviewWorkflowsWorkflowStage`, …),
 * behind `plugin::review-workflows.workflow.*` and `.workflow-stage.*` permissions, with no REST routes,
 * as Strapi's content API has them. Assigning stages to entries is the admin panel's, which Folio does not
 * serve: here they are stored and read like any content.
 */

const FILE = '(built in: review-workflows)';
const WORKFLOW_UID = 'plugin::review-workflows.workflow';
const STAGE_UID = 'plugin::review-workflows.workflow-stage';

const WORKFLOW: ContentType = {
  uid: WORKFLOW_UID,
  apiName: 'review-workflows',
  kind: 'collectionType',
  collectionName: 'strapi_workflows',
  singularName: 'review-workflows-workflow',
  pluralName: 'review-workflows-workflows',
  displayName: 'Workflow',
  draftAndPublish: false,
  localized: false,
  file: FILE,
  attributes: {
    name: { type: 'string', required: true, unique: true, localized: false },
    stages: { type: 'relation', relation: 'oneToMany', target: STAGE_UID, mappedBy: 'workflow', localized: false },
    stageRequiredToPublish: { type: 'relation', relation: 'oneToOne', target: STAGE_UID, localized: false },
    contentTypes: { type: 'json', required: true, default: [], localized: false },
  },
};

const STAGE: ContentType = {
  uid: STAGE_UID,
  apiName: 'review-workflows',
  kind: 'collectionType',
  collectionName: 'strapi_workflows_stages',
  singularName: 'review-workflows-workflow-stage',
  pluralName: 'review-workflows-workflow-stages',
  displayName: 'Stages',
  draftAndPublish: false,
  localized: false,
  file: FILE,
  attributes: {
    name: { type: 'string', localized: false },
    color: { type: 'string', default: '#4945FF', localized: false },
    workflow: { type: 'relation', relation: 'manyToOne', target: WORKFLOW_UID, inversedBy: 'stages', localized: false },
  },
};

const create = (): FolioModule => ({ name: 'review-workflows' });

export const createReviewWorkflowsModule: FolioModuleFactory = Object.assign(create, { contentTypes: [WORKFLOW, STAGE] });
