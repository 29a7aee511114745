/**
 * What other modules use of the second factor: the one check of a code (sign-in's second step, step-up),
 * whether an account has a factor, and the sign-in's challenge.
 */
export { hasSecondFactor, type KeySource, purgeChallenges, startChallenge, type Subject, verifySecondFactor } from './service';
