import type { FolioModuleFactory } from './folio-module';
import { createRestModule } from '../rest/rest-module';
import { createUploadModule } from '../upload/upload-module';
import { createUsersPermissionsModule } from '../users/create-users-permissions-module';

/** The features every Folio has, in the order their routes are tried. */
export const BUILT_IN_MODULES: FolioModuleFactory[] = [createUsersPermissionsModule, createUploadModule, createRestModule];
