// The reviews a client posts about itself, in protobuf as kubectl's typed clients send them: the
// authorization.k8s.io/v1 access and rules reviews of `kubectl auth can-i`, and the
// authentication.k8s.io/v1 SelfSubjectReview of `kubectl auth whoami` (numbers from k8s.io/api's
// generated.proto). The status a client leaves empty; the server fills it in (access-reviews.ts).
import type { MessageSchema } from './protobuf-schema';
import { field, message, objectMeta, pointer, repeated, selectorRequirement } from './protobuf-schema';

const selectorAttributes = (selector: 'Field' | 'Label') =>
  message(`authorization/v1 ${selector}SelectorAttributes`, {
    1: field('rawSelector', 'string'),
    2: field('requirements', selectorRequirement(selector), repeated),
  });

const resourceAttributes = message('authorization/v1 ResourceAttributes', {
  1: field('namespace', 'string'),
  2: field('verb', 'string'),
  3: field('group', 'string'),
  4: field('version', 'string'),
  5: field('resource', 'string'),
  6: field('subresource', 'string'),
  7: field('name', 'string'),
  8: field('fieldSelector', selectorAttributes('Field'), pointer),
  9: field('labelSelector', selectorAttributes('Label'), pointer),
});

const nonResourceAttributes = message('authorization/v1 NonResourceAttributes', {
  1: field('path', 'string'),
  2: field('verb', 'string'),
});

export const selfSubjectAccessReview: MessageSchema = message('authorization/v1 SelfSubjectAccessReview', {
  1: field('metadata', objectMeta),
  2: field(
    'spec',
    message('authorization/v1 SelfSubjectAccessReviewSpec', {
      1: field('resourceAttributes', resourceAttributes, pointer),
      2: field('nonResourceAttributes', nonResourceAttributes, pointer),
    }),
  ),
  3: field('status', message('authorization/v1 SubjectAccessReviewStatus', {})),
});

export const selfSubjectRulesReview: MessageSchema = message('authorization/v1 SelfSubjectRulesReview', {
  1: field('metadata', objectMeta),
  2: field(
    'spec',
    message('authorization/v1 SelfSubjectRulesReviewSpec', { 1: field('namespace', 'string') }),
  ),
  3: field('status', message('authorization/v1 SubjectRulesReviewStatus', {})),
});

export const selfSubjectReview: MessageSchema = message('authentication/v1 SelfSubjectReview', {
  1: field('metadata', objectMeta),
  2: field(
    'status',
    message('authentication/v1 SelfSubjectReviewStatus', {
      1: field(
        'userInfo',
        message('authentication/v1 UserInfo', {
          1: field('username', 'string'),
          2: field('uid', 'string'),
          3: field('groups', 'string', repeated),
        }),
      ),
    }),
  ),
});
