package train

// FreeFabric is a fabric that delivers every transfer at once, for tests
// outside the package.
type FreeFabric = freeFabric
