import type { FolioModuleFactory } from '../server/folio-module';
import { createRestModule } from '../server/rest/rest-module';
import { createUploadModule } from '../server/media/upload-module';
import { createUsersPermissionsModule } from '../server/users/create-users-permissions-module';
import { createLocalesModule } from '../server/i18n/locales-module';
import { createReviewWorkflowsModule } from '../server/review-workflows/review-workflows-module';

/** The features every Folio has, in the order their routes are tried. */
export const BUILT_IN_MODULES: FolioModuleFactory[] = [createUsersPermissionsModule, createUploadModule, createLocalesModule, createReviewWorkflowsModule, createRestModule];
