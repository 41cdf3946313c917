#ifndef SHOEBOX_CCRYPTO_H
#define SHOEBOX_CCRYPTO_H
// OpenSSL's EVP digest interface (libcrypto), for SHA-256 only.
#include <openssl/evp.h>
#endif
