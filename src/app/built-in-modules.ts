import type { FolioModuleFactory } from '../server/folio-module';
import { createRestModule } from '../server/content-routes/rest-module';
import { createUploadModule } from '../server/upload-routes/upload-module';
import { createUsersPermissionsModule } from '../server/user-routes/create-users-permissions-module';
import { createLocalesModule } from '../server/i18n/locales-module';
import { createReviewWorkflowsModule } from '../server/review-workflows/review-workflows-module';

/** The features every Folio has, in the order their routes are tried. */
export const BUILT_IN_MODULES: FolioModuleFactory[] = [createUsersPermissionsModule, createUploadModule, createLocalesModule, createReviewWorkflowsModule, createRestModule];
