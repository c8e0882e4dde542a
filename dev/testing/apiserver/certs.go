package apiserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// credentials are the files the API server reads: its serving certificate (signed by a CA made
// for this server), the service-account key pair and the token file.
type credentials struct {
	caPEM                 []byte
	adminToken, limToken  string
	certFile, keyFile     string
	saKeyFile, saPubFile  string
	tokenFile, caCertFile string
}

// writeCredentials generates the credentials of one server into dir. Nothing is read from or
// written to the host's configuration.
func writeCredentials(dir string) (*credentials, error) {
	c := &credentials{
		certFile:   filepath.Join(dir, "serving.crt"),
		keyFile:    filepath.Join(dir, "serving.key"),
		saKeyFile:  filepath.Join(dir, "sa.key"),
		saPubFile:  filepath.Join(dir, "sa.pub"),
		tokenFile:  filepath.Join(dir, "tokens.csv"),
		caCertFile: filepath.Join(dir, "ca.crt"),
	}
	var err error
	if c.caPEM, err = writeServingCert(c.caCertFile, c.certFile, c.keyFile); err != nil {
		return nil, err
	}
	if err := writeServiceAccountKey(c.saKeyFile, c.saPubFile); err != nil {
		return nil, err
	}
	if c.adminToken, err = randomToken(); err != nil {
		return nil, err
	}
	if c.limToken, err = randomToken(); err != nil {
		return nil, err
	}
	// token,user,uid,"group1,group2" (kube-apiserver --token-auth-file).
	tokens := fmt.Sprintf("%s,%s,%s,%s\n%s,%s,%s\n",
		c.adminToken, AdminUser, AdminUser, "system:masters",
		c.limToken, LimitedUser, LimitedUser)
	if err := os.WriteFile(c.tokenFile, []byte(tokens), 0o600); err != nil {
		return nil, fmt.Errorf("writing the token file: %w", err)
	}
	return c, nil
}

// writeServingCert writes a CA certificate to caFile and a certificate for 127.0.0.1 signed by
// it to certFile and keyFile, and returns the CA certificate's PEM.
func writeServingCert(caFile, certFile, keyFile string) ([]byte, error) {
	ca, err := newCert("rules_krm test apiserver CA", &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}, nil)
	if err != nil {
		return nil, err
	}
	serving, err := newCert("kube-apiserver", &x509.Certificate{
		SerialNumber: big.NewInt(2),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}, ca)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(serving.key)
	if err != nil {
		return nil, fmt.Errorf("encoding the serving key: %w", err)
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.cert.Raw})
	if err := writePEM(caFile, caPEM); err != nil {
		return nil, err
	}
	if err := writePEM(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: serving.cert.Raw})); err != nil {
		return nil, err
	}
	if err := writePEM(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})); err != nil {
		return nil, err
	}
	return caPEM, nil
}

// keyCert is a certificate and its private key.
type keyCert struct {
	key  *ecdsa.PrivateKey
	cert *x509.Certificate
}

// newCert generates a P-256 key and a certificate from tmpl for it, named name and valid from
// an hour ago for a day, signed by issuer (self-signed when issuer is nil).
func newCert(name string, tmpl *x509.Certificate, issuer *keyCert) (*keyCert, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating the key of %s: %w", name, err)
	}
	now := time.Now()
	tmpl.Subject = pkix.Name{CommonName: name}
	tmpl.NotBefore, tmpl.NotAfter = now.Add(-time.Hour), now.Add(24*time.Hour)
	parent, signer := tmpl, key
	if issuer != nil {
		parent, signer = issuer.cert, issuer.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		return nil, fmt.Errorf("creating the certificate of %s: %w", name, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parsing the certificate of %s: %w", name, err)
	}
	return &keyCert{key: key, cert: cert}, nil
}

// writeServiceAccountKey writes the RSA key pair that signs and verifies service-account
// tokens (--service-account-signing-key-file, --service-account-key-file).
func writeServiceAccountKey(keyFile, pubFile string) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return fmt.Errorf("generating the service-account key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return fmt.Errorf("encoding the service-account public key: %w", err)
	}
	if err := writePEM(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})); err != nil {
		return err
	}
	return writePEM(pubFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
}

func writePEM(path string, data []byte) error {
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Base(path), err)
	}
	return nil
}

// randomToken returns 32 random bytes in hex: a bearer token.
func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generating a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}
