// What a 3MF's model parts name in the package, checked once every part is read: each texture's part (there,
// a PNG or JPEG as its contenttype says, and related to the model part as a 3D texture), each object
// thumbnail's (there, an image, related as a thumbnail), and each model part reached by path (related to
// the root model part as a 3D model, the production extension's rule).
import type { Violations } from './spec-rules.ts';
import { IMAGE_TYPES, partKey, RELATIONSHIP, type PackageParts } from './threemf-package.ts';
import type { ModelPart } from './threemf-part.ts';

function relatedAs(pkg: PackageParts, source: string, target: string, types: string[]): boolean {
  return pkg.relationshipsFrom(source).some((relationship) => relationship.target === target && types.includes(relationship.type));
}

function checkTextures(pkg: PackageParts, key: string, part: ModelPart, violations: Violations): void {
  for (const texture of part.textures) {
    if (texture.path === null) continue;
    const where = () => ({ part: texture.part, element: texture.element, ...(texture.id !== null ? { id: texture.id } : {}), line: texture.line });
    const target = partKey(texture.path);
    if (!pkg.has(target)) {
      violations.add('materials.texture-part', `${texture.id !== null ? `Texture ${texture.id}` : 'A texture'} names ${texture.path}, which is not in the package.`, where);
      continue;
    }
    const type = pkg.contentTypeOf(target);
    if (type !== null && !IMAGE_TYPES.has(type)) violations.add('materials.texture-content-type', `The texture ${texture.path} has the content type ${type}, not image/png or image/jpeg.`, where);
    else if (type !== null && texture.contentType !== null && IMAGE_TYPES.has(texture.contentType) && type !== texture.contentType) violations.add('materials.texture-content-type', `The texture ${texture.path} is ${type}, but its <texture2d> says ${texture.contentType}.`, where);
    if (!relatedAs(pkg, key, target, [RELATIONSHIP.texture])) violations.add('materials.texture-part', `The texture ${texture.path} has no 3D texture relationship from ${texture.part}.`, where);
  }
}

function checkThumbnails(pkg: PackageParts, key: string, name: string, part: ModelPart, violations: Violations): void {
  for (const thumbnail of part.thumbnails) {
    const target = partKey(thumbnail.path);
    const where = () => ({ part: name, element: 'object', line: thumbnail.line });
    if (!pkg.has(target)) violations.add('core.thumbnail', `An object's thumbnail ${thumbnail.path} is not in the package.`, where);
    else if (!relatedAs(pkg, key, target, [RELATIONSHIP.thumbnail, RELATIONSHIP.texture])) violations.add('core.thumbnail', `An object's thumbnail ${thumbnail.path} has no thumbnail relationship from ${name}.`, where);
    else pkg.checkImage(target, 'core.thumbnail', `An object's thumbnail ${thumbnail.path}`, name, thumbnail.line);
  }
}

export function checkPartReferences(pkg: PackageParts, parts: ReadonlyMap<string, ModelPart>, rootKey: string, violations: Violations): void {
  const rootName = parts.get(rootKey)?.name ?? rootKey;
  for (const [key, part] of parts) {
    checkTextures(pkg, key, part, violations);
    checkThumbnails(pkg, key, part.name, part, violations);
    if (key !== rootKey && !relatedAs(pkg, rootKey, key, [RELATIONSHIP.startPart])) {
      violations.add('production.model-relationship', `The model part ${part.name} is used by path but has no 3D model relationship from ${rootName}.`, () => ({ part: part.name }));
    }
  }
}
