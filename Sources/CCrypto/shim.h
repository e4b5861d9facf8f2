#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>

/* EVP_PKEY_PUBLIC_KEY is an expression macro, which Swift does not import. */
static inline int vouch_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }

/* OSSL_PARAM_BLD keeps the pointer to a parameter's name (and to a string value) until OSSL_PARAM_BLD_to_param,
   so a name must outlive the call that pushes it: Swift's bridged C strings do not. These give the static ones. */
static inline const char *vouch_param_rsa_n(void) { return OSSL_PKEY_PARAM_RSA_N; }
static inline const char *vouch_param_rsa_e(void) { return OSSL_PKEY_PARAM_RSA_E; }
static inline const char *vouch_param_group_name(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *vouch_param_public_key(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *vouch_group_p256(void) { return "P-256"; }
