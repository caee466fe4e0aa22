#ifndef CONTACTS_CCRYPTO_SHIM_H
#define CONTACTS_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#endif
