// passport-github2 ships no types; GithubStrategy describes the parts it uses.
declare module 'passport-github2' {
  const Strategy: unknown;
  export default Strategy;
}
