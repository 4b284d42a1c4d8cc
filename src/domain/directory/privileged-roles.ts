/**
 * Built-in Entra roles svc treats as privileged, by roleTemplateId (the same id in every tenant and cloud).
 * Source: Microsoft Entra built-in roles reference (learn.microsoft.com/entra/identity/role-based-access-control/
 * permissions-reference), the roles it marks PRIVILEGED that administer the whole tenant, its identities or its
 * security configuration.
 */
export const GLOBAL_ADMINISTRATOR_TEMPLATE_ID = '62e90394-69f5-4237-9190-012177145e10';

export const PRIVILEGED_ROLE_TEMPLATES: Readonly<Record<string, string>> = {
  [GLOBAL_ADMINISTRATOR_TEMPLATE_ID]: 'Global Administrator',
  'e8611ab8-c189-46e8-94e1-60213ab1f814': 'Privileged Role Administrator',
  '194ae4cb-b126-40b2-bd5b-6091b380977d': 'Security Administrator',
  'fe930be7-5e62-47db-91af-98c3a49a38b1': 'User Administrator',
  '29232cdf-9323-42fd-ade2-1d097af3e4de': 'Exchange Administrator',
  'f28a1f50-f6e7-4571-818b-6a12f2af6b6c': 'SharePoint Administrator',
  '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3': 'Application Administrator',
  '158c047a-c907-4556-b7ef-446551a6b5f7': 'Cloud Application Administrator',
  '7be44c8a-adaf-4e2a-84d6-ab2649e08a13': 'Privileged Authentication Administrator',
  'b1be1c3e-b65d-4f19-8427-f6fa0d97feb9': 'Conditional Access Administrator',
  'c4e39bd9-1100-46d3-8c65-fb160da0071f': 'Authentication Administrator',
  '729827e3-9c14-49f7-bb1b-9608f156bbb8': 'Helpdesk Administrator',
  '966707d0-3269-4727-9be2-8c3a10f19b9d': 'Password Administrator',
  'fdd7a751-b60b-444a-984c-02652fe8fa1c': 'Groups Administrator',
  '3a2c62db-5318-420d-8d74-23affee5d9d5': 'Intune Administrator',
  '8ac3fc64-6eca-42ea-9e69-59f4c7b60eb2': 'Hybrid Identity Administrator',
};

export function isPrivilegedRole(roleTemplateId: string): boolean {
  return Object.prototype.hasOwnProperty.call(PRIVILEGED_ROLE_TEMPLATES, roleTemplateId);
}
