/**
 * The STIG requirement map ({@code stig/asd-stig.json}, carried in this bundle) and the engine that
 * gives each of its rules a status: an automated rule the latest result of the check it names, a
 * rule met by design Not a Finding with how, one not applicable Not Applicable with why, and one a
 * person must answer Not Reviewed with the question.
 */
package io.bulwark.compliance.internal;
