"""Go dependencies of rules_krm for WORKSPACE builds, generated from go.mod by scripts/gazelle.sh."""

load("@bazel_gazelle//:deps.bzl", "go_repository")

def go_dependencies():
    """Declares the go_repository rules of the modules in go.mod."""
    go_repository(
        name = "co_honnef_go_tools",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "honnef.co/go/tools",
        sum = "h1:/hemPrYIhOhy8zYrNj+069zDB68us2sMGsfkFJO0iZs=",
        version = "v0.0.0-20190523083050-ea95bdfd59fc",
    )
    go_repository(
        name = "com_github_bazelbuild_bazel_gazelle",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/bazelbuild/bazel-gazelle",
        sum = "h1:/gh8S450+nfr3wYI6bTYEi297obbVcMObavhPuB7LVo=",
        version = "v0.26.0",
    )
    go_repository(
        name = "com_github_bazelbuild_buildtools",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/bazelbuild/buildtools",
        sum = "h1:fmdo+fvvWlhldUcqkhAMpKndSxMN3vH5l7yow5cEaiQ=",
        version = "v0.0.0-20220531122519-a43aed7014c8",
    )
    go_repository(
        name = "com_github_bazelbuild_rules_go",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/bazelbuild/rules_go",
        sum = "h1:WW9CHmFxbE+Lm4qiLOFAPogmiAUzZtvQsWxUcm4wwaU=",
        version = "v0.33.0",
    )

    go_repository(
        name = "com_github_blang_semver_v4",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/blang/semver/v4",
        sum = "h1:1PFHFE6yCCTv8C1TeyNNarDzntLi7wMI5i/pzqYIsAM=",
        version = "v4.0.0",
    )
    go_repository(
        name = "com_github_bmatcuk_doublestar_v4",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/bmatcuk/doublestar/v4",
        sum = "h1:X0krlUVAVmtr2cRoTqR8aDMrDqnB36ht8wpWTiQ3jsA=",
        version = "v4.0.2",
    )
    go_repository(
        name = "com_github_burntsushi_toml",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/BurntSushi/toml",
        sum = "h1:WXkYYl6Yr3qBf1K79EBnL4mak0OimBfB0XUf9Vl28OQ=",
        version = "v0.3.1",
    )
    go_repository(
        name = "com_github_census_instrumentation_opencensus_proto",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/census-instrumentation/opencensus-proto",
        sum = "h1:glEXhBS5PSLLv4IXzLA5yPRVX4bilULVyxxbrfOtDAk=",
        version = "v0.2.1",
    )
    go_repository(
        name = "com_github_chzyer_logex",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/chzyer/logex",
        sum = "h1:Swpa1K6QvQznwJRcfTfQJmTE72DqScAa40E+fbHEXEE=",
        version = "v1.1.10",
    )

    go_repository(
        name = "com_github_chzyer_readline",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/chzyer/readline",
        sum = "h1:upd/6fQk4src78LMRzh5vItIt361/o4uq553V8B5sGI=",
        version = "v1.5.1",
    )
    go_repository(
        name = "com_github_chzyer_test",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/chzyer/test",
        sum = "h1:q763qf9huN11kDQavWsoZXJNW3xEE4JJyHa5Q25/sd8=",
        version = "v0.0.0-20180213035817-a1ea475d72b1",
    )
    go_repository(
        name = "com_github_client9_misspell",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/client9/misspell",
        sum = "h1:ta993UF76GwbvJcIo3Y68y/M3WxlpEHPWIGDkJYwzJI=",
        version = "v0.3.4",
    )

    go_repository(
        name = "com_github_davecgh_go_spew",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/davecgh/go-spew",
        sum = "h1:vj9j/u1bqnvCEfJOwUhtlOARqs3+rkHYY13jYWTU97c=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_emicklei_go_restful_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/emicklei/go-restful/v3",
        sum = "h1:C4Bl2xDndpU6nJ4bc1jXd+uTmYPVUwkD6bFY/oTyCes=",
        version = "v3.13.0",
    )
    go_repository(
        name = "com_github_envoyproxy_go_control_plane",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/go-control-plane",
        sum = "h1:4cmBvAEBNJaGARUEs3/suWRyfyBfhf7I60WBZq+bv2w=",
        version = "v0.9.1-0.20191026205805-5f8ba28d4473",
    )
    go_repository(
        name = "com_github_envoyproxy_protoc_gen_validate",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/protoc-gen-validate",
        sum = "h1:EQciDnbrYxy13PgWoY8AqoxGiPrpgBZ1R8UNe3ddc+A=",
        version = "v0.1.0",
    )
    go_repository(
        name = "com_github_fsnotify_fsnotify",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/fsnotify/fsnotify",
        sum = "h1:jRbGcIw6P2Meqdwuo0H1p6JVLbL5DHKAKlYndzMwVZI=",
        version = "v1.5.4",
    )

    go_repository(
        name = "com_github_go_errors_errors",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-errors/errors",
        sum = "h1:ZwEMSLRCapFLflTpT7NKaAc7ukJ8ZPEjzlxt8rPN8bk=",
        version = "v1.5.1",
    )
    go_repository(
        name = "com_github_go_logr_logr",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-logr/logr",
        sum = "h1:6pFjapn8bFcIbiKo3XT4j/BhANplGihG6tvd+8rYgrY=",
        version = "v1.4.2",
    )
    go_repository(
        name = "com_github_go_openapi_jsonpointer",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/jsonpointer",
        sum = "h1:kR9tHqY0CtZaOPVFm622dPVNhrvYpwr4uCxgL3h1H8s=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_go_openapi_jsonreference",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/jsonreference",
        sum = "h1:jlmTr6torcd1YgDQvSfNmRtKzYDO4FGBkrAdlAVWnpY=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag",
        sum = "h1:VotvOLWW8q/EAxB0YdsBBGC8XYyeL1YwBj2ungAGPNg=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_cmdutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/cmdutils",
        sum = "h1:I7sYqaWVl5mq0NEmNQkAmFDyNin9ufvMX/p2zwtQaOE=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_conv",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/conv",
        sum = "h1:8wi9ZG+olmY1wXphl93EWniPtbSPkXM/feH7FgjsvrU=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_fileutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/fileutils",
        sum = "h1:QQqBSoi5mW4XpU85nS0mLcA+zAE6vLzrb0QkmLKf9oM=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_jsonutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/jsonutils",
        sum = "h1:SVgK3i4USzCU5mibOOS/l4ea2h9UQXy7J7RNLTjuXjU=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_jsonutils_fixtures_test",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/jsonutils/fixtures_test",
        sum = "h1:mJu3COL9WEaZVp/Kf2PRMi7tPszPEJfSr/OO75ynCs8=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_loading",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/loading",
        sum = "h1:/DxUgDXKbBX4bcn7r9uEXfJyzN5XpiJmZplzQTjrRCY=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_mangling",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/mangling",
        sum = "h1:yC9D0HyUE8gbP+BfmGx9+AA89ikwZTMjESK3OnnoaqA=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_netutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/netutils",
        sum = "h1:mICMFoS82F5TZ4Zy3cqmcQk+BFeCp3Uyq3Np7GI0/qU=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_pools",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/pools",
        sum = "h1:9LeadcMyb2GJCbXX5hVQDbZ2Lq9TL4dCs/nx1j5DO0E=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_stringutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/stringutils",
        sum = "h1:ZXePZ0r2p1qSjo8tD3Un4vFj8+FqlCkczxDrJIhYUp8=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_typeutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/typeutils",
        sum = "h1:KSTdFlfnse4r6dP9IrEnwMldjE+zs71UeEB3//PtVXc=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_swag_yamlutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/yamlutils",
        sum = "h1:ftxv6xvXb1E3zohUc+okZ9nSqNb9StQX/FXnKZ98sQA=",
        version = "v0.27.1",
    )
    go_repository(
        name = "com_github_go_openapi_testify_enable_yaml_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/testify/enable/yaml/v2",
        sum = "h1:gGHwAJ0R/5jU8BEGDbfRNR3hL68dAVi84WuOApp29B0=",
        version = "v2.6.0",
    )
    go_repository(
        name = "com_github_go_openapi_testify_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/testify/v2",
        sum = "h1:5PKH2HE7YJ/LuRPQGvSxBRlFXNQhSetBLlGAgUEu3ug=",
        version = "v2.6.0",
    )
    go_repository(
        name = "com_github_golang_glog",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/glog",
        sum = "h1:VKtxabqXZkF25pY9ekfRL6a582T4P37/31XEstQ5p58=",
        version = "v0.0.0-20160126235308-23def4e6c14b",
    )
    go_repository(
        name = "com_github_golang_mock",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/mock",
        sum = "h1:G5FRp8JnTd7RQH5kemVNlMeyXQAztQ3mOWV95KxsXH8=",
        version = "v1.1.1",
    )

    go_repository(
        name = "com_github_golang_protobuf",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/protobuf",
        sum = "h1:LUVKkCeviFUMKqHa4tXIIij/lbhnMbP7Fn5wKdKkRh4=",
        version = "v1.5.0",
    )
    go_repository(
        name = "com_github_google_gnostic_models",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/gnostic-models",
        sum = "h1:SisTfuFKJSKM5CPZkffwi6coztzzeYUhc3v4yxLWH8c=",
        version = "v0.7.1",
    )
    go_repository(
        name = "com_github_google_go_cmp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/go-cmp",
        sum = "h1:wk8382ETsv4JYUZwIsn6YpYiWiBsYLSJiTsyBybVuN8=",
        version = "v0.7.0",
    )
    go_repository(
        name = "com_github_google_uuid",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/uuid",
        sum = "h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0=",
        version = "v1.6.0",
    )
    go_repository(
        name = "com_github_inconshreveable_mousetrap",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/inconshreveable/mousetrap",
        sum = "h1:wN+x4NVGpMsO7ErUn/mUI3vEoE6Jt13X2s0bqwp9tc8=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_monochromegane_go_gitignore",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/monochromegane/go-gitignore",
        sum = "h1:n6/2gBQ3RWajuToeY6ZtZTIKv2v7ThUy5KKusIT0yc0=",
        version = "v0.0.0-20200626010858-205db1a8cc00",
    )
    go_repository(
        name = "com_github_munnerz_goautoneg",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/munnerz/goautoneg",
        sum = "h1:C3w9PqII01/Oq1c1nUAm88MOHcQC9l5mIlSMApZMrHA=",
        version = "v0.0.0-20191010083416-a7dc8b61c822",
    )
    go_repository(
        name = "com_github_nytimes_gziphandler",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/NYTimes/gziphandler",
        sum = "h1:ZUDjpQae29j0ryrS0u/B8HZfJBtBQHjqw2rQ2cqUQ3I=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_pelletier_go_toml",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pelletier/go-toml",
        sum = "h1:4yBQzkHv+7BHq2PQUZF3Mx0IYxG7LsP222s7Agd3ve8=",
        version = "v1.9.5",
    )

    go_repository(
        name = "com_github_pmezard_go_difflib",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pmezard/go-difflib",
        sum = "h1:4DBwDE0NGyQoBHbLQYPwSUPoCMWR5BEzIk/f1lZbAQM=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_prometheus_client_model",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/client_model",
        sum = "h1:gQz4mCbXsO+nc9n1hCxHcGA3Zx3Eo+UHZoInFGUIXNM=",
        version = "v0.0.0-20190812154241-14fe0d1b01d4",
    )

    go_repository(
        name = "com_github_sergi_go_diff",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sergi/go-diff",
        sum = "h1:n/SP9D5ad1fORl+llWyN+D6qoUETXNZARKjyY2/KVCw=",
        version = "v1.4.0",
    )
    go_repository(
        name = "com_github_spf13_cobra",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/cobra",
        sum = "h1:DMTTonx5m65Ic0GOoRY2c16WCbHxOOw6xxezuLaBpcU=",
        version = "v1.10.2",
    )
    go_repository(
        name = "com_github_spf13_pflag",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/pflag",
        sum = "h1:4EBh2KAYBwaONj6b2Ye1GiHfwjqyROoF4RwYO+vPwFk=",
        version = "v1.0.10",
    )
    go_repository(
        name = "com_github_stretchr_objx",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/stretchr/objx",
        sum = "h1:jmXUvGomnU1o3W/V5h2VEradbpJDwGrzugQQvL0POH4=",
        version = "v0.5.3",
    )
    go_repository(
        name = "com_github_stretchr_testify",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/stretchr/testify",
        sum = "h1:EuwCh5fleGS7H32xRwO3wRGT7DxrDhLAT6FF8MpWDWE=",
        version = "v1.12.1",
    )
    go_repository(
        name = "com_github_xlab_treeprint",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xlab/treeprint",
        sum = "h1:HzHnuAF1plUN2zGlAFHbSQP2qJ0ZAD3XF5XD7OesXRQ=",
        version = "v1.2.0",
    )
    go_repository(
        name = "com_google_cloud_go",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go",
        sum = "h1:e0WKqKTd5BnrG8aKH3J3h+QvEIQtSUcf2n5UZ5ZgLtQ=",
        version = "v0.26.0",
    )

    go_repository(
        name = "in_gopkg_check_v1",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/check.v1",
        sum = "h1:yhCVgyC4o1eVCa2tZl7eS0r+SDo693bJlVdllGtEeKM=",
        version = "v0.0.0-20161208181325-20d25e280405",
    )
    go_repository(
        name = "in_gopkg_evanphx_json_patch_v4",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/evanphx/json-patch.v4",
        sum = "h1:czT3CmqEaQ1aanPc5SdlgQrrEIb8w/wwCvWWnfEbYzo=",
        version = "v4.13.0",
    )
    go_repository(
        name = "in_gopkg_yaml_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/yaml.v3",
        sum = "h1:fxVm/GzAzEWqLHuvctI91KS9hhNmmWOoWu0XTYJS7CA=",
        version = "v3.0.1",
    )
    go_repository(
        name = "in_yaml_go_yaml_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.yaml.in/yaml/v2",
        sum = "h1:tuyd0P+2Ont/d6e2rl3be67goVK4R6deVxCUX5vyPaQ=",
        version = "v2.4.4",
    )
    go_repository(
        name = "in_yaml_go_yaml_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.yaml.in/yaml/v3",
        sum = "h1:N6y/pJk8buWs9NY5ERU2HSMfm+IuD/OtfdAnq6kESPw=",
        version = "v3.0.5",
    )
    go_repository(
        name = "io_k8s_gengo_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/gengo/v2",
        sum = "h1:gMplByicHV/TJBizHd9aVEsTYoJBnnUAT5MHlTkbjhQ=",
        version = "v2.0.0-20250922181213-ec3ebc5fd46b",
    )
    go_repository(
        name = "io_k8s_klog_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/klog/v2",
        sum = "h1:Tf+J3AH7xnUzZyVVXhTgGhEKnFqye14aadWv7bzXdzc=",
        version = "v2.140.0",
    )
    go_repository(
        name = "io_k8s_kube_openapi",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/kube-openapi",
        sum = "h1:oXImqH8mQNk7PmvzKhmN3ddJoY6OnyM225MXwGHPm0A=",
        version = "v0.0.0-20260721132016-d427ff9ee9ad",
    )
    go_repository(
        name = "io_k8s_sigs_json",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/json",
        sum = "h1:IpInykpT6ceI+QxKBbEflcR5EXP7sU1kvOlxwZh5txg=",
        version = "v0.0.0-20250730193827-2d320260d730",
    )
    go_repository(
        name = "io_k8s_sigs_kustomize_api",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/kustomize/api",
        sum = "h1:MRyw+zLnFBP+G40gZJoKZErAuRiOPEPao+ddS9L6xt4=",
        version = "v0.21.2",
    )
    go_repository(
        name = "io_k8s_sigs_kustomize_kyaml",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/kustomize/kyaml",
        patch_args = ["-p1"],
        patches = ["@rules_krm//bazel/patches:kyaml-openapi-embed.patch"],
        sum = "h1:1javwStFk7cgOeLU7yJtPmXcgMEhQgC2X0WjFT6U0p0=",
        version = "v0.21.2",
    )
    go_repository(
        name = "io_k8s_sigs_randfill",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/randfill",
        sum = "h1:JfjMILfT8A6RbawdsK2JXGBR5AQVfd+9TbzrlneTyrU=",
        version = "v1.0.0",
    )
    go_repository(
        name = "io_k8s_sigs_structured_merge_diff_v6",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/structured-merge-diff/v6",
        sum = "h1:AkER7js0XVWi/F/V2Iwl5N7O/B9VP2JyrOMmHPdco+g=",
        version = "v6.4.1",
    )
    go_repository(
        name = "io_k8s_sigs_yaml",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/yaml",
        sum = "h1:G8fkbMSAFqgEFgh4b1wmtzDnioxFCUgTZhlbj5P9QYs=",
        version = "v1.6.0",
    )
    go_repository(
        name = "io_k8s_utils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/utils",
        sum = "h1:Ea7fgQ5we8Y9T0OX5o0dAHzQOBRI07D/dEYRaB9ZZEs=",
        version = "v0.0.0-20260626114624-be93311217bd",
    )
    go_repository(
        name = "net_starlark_go",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.starlark.net",
        sum = "h1:X8HyonnLxrmAbdeMIEGEJVZ/yg6WykLZyAZmpCLSfMA=",
        version = "v0.0.0-20260908191801-89a6a09411d5",
    )
    go_repository(
        name = "org_golang_google_appengine",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/appengine",
        sum = "h1:/wp5JvzpHIxhs/dumFmF7BXTf3Z+dd4uXta4kVyO508=",
        version = "v1.4.0",
    )
    go_repository(
        name = "org_golang_google_genproto",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/genproto",
        sum = "h1:+kGHl1aib/qcwaRi1CbqBZ1rk19r85MNUf8HaBghugY=",
        version = "v0.0.0-20200526211855-cb27e3aa2013",
    )
    go_repository(
        name = "org_golang_google_grpc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/grpc",
        sum = "h1:rRYRFMVgRv6E0D70Skyfsr28tDXIuuPZyWGMPdMcnXg=",
        version = "v1.27.0",
    )

    go_repository(
        name = "org_golang_google_protobuf",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/protobuf",
        sum = "h1:pJOKDDOyeXErUroCihFAd5LQuwXBSpVnKGrj5o/fwxc=",
        version = "v1.36.12",
    )
    go_repository(
        name = "org_golang_x_crypto",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/crypto",
        sum = "h1:VklqNMn3ovrHsnt90PveolxSbWFaJdECFbxSq0Mqo2M=",
        version = "v0.0.0-20190308221718-c2843e01d9a2",
    )
    go_repository(
        name = "org_golang_x_exp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/exp",
        sum = "h1:c2HOrn5iMezYjSlGPncknSEr/8x5LELb/ilJbXi9DEA=",
        version = "v0.0.0-20190121172915-509febef88a4",
    )
    go_repository(
        name = "org_golang_x_lint",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/lint",
        sum = "h1:XQyxROzUlZH+WIQwySDgnISgOivlhjIEwaQaJEJrrN0=",
        version = "v0.0.0-20190313153728-d0100b6bd8b3",
    )

    go_repository(
        name = "org_golang_x_mod",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/mod",
        sum = "h1:tHFzIWbBifEmbwtGz65eaWyGiGZatSrT9prnU8DbVL8=",
        version = "v0.33.0",
    )
    go_repository(
        name = "org_golang_x_net",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/net",
        sum = "h1:oWX7TPOiFAMXLq8o0ikBYfCJVlRHBcsciT5bXOrH628=",
        version = "v0.0.0-20190311183353-d8887717615a",
    )
    go_repository(
        name = "org_golang_x_oauth2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/oauth2",
        sum = "h1:vEDujvNQGv4jgYKudGeI/+DAX4Jffq6hpD55MmoEvKs=",
        version = "v0.0.0-20180821212333-d2e6202438be",
    )

    go_repository(
        name = "org_golang_x_sync",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/sync",
        sum = "h1:vV+1eWNmZ5geRlYjzm2adRgW2/mcpevXNg50YZtPCE4=",
        version = "v0.19.0",
    )
    go_repository(
        name = "org_golang_x_sys",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/sys",
        sum = "h1:bbX/i/6MgT9BVLM9RT1thmxL04yeTAhbEz4SyadbXoo=",
        version = "v0.48.0",
    )
    go_repository(
        name = "org_golang_x_term",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/term",
        sum = "h1:QCgPso/Q3RTJx2Th4bDLqML4W6iJiaXFq2/ftQF13YU=",
        version = "v0.41.0",
    )
    go_repository(
        name = "org_golang_x_text",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/text",
        sum = "h1:g61tztE5qeGQ89tm6NTjjM9VPIm088od1l6aSorWRWg=",
        version = "v0.3.0",
    )

    go_repository(
        name = "org_golang_x_tools",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools",
        sum = "h1:loJ25fNOEhSXfHrpoGj91eCUThwdNX6u24rO1xnNteY=",
        version = "v0.1.11",
    )
    go_repository(
        name = "org_golang_x_tools_go_expect",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools/go/expect",
        sum = "h1:jY2C5HGYR5lqex3gEniOQL0r7Dq5+VGVgY1nudX5lXY=",
        version = "v0.1.0-deprecated",
    )
    go_repository(
        name = "org_golang_x_tools_go_packages_packagestest",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools/go/packages/packagestest",
        sum = "h1:1h2MnaIAIXISqTFKdENegdpAgUXz6NrPEsbIeWaBRvM=",
        version = "v0.1.1-deprecated",
    )
    go_repository(
        name = "org_golang_x_tools_go_vcs",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools/go/vcs",
        sum = "h1:cOIJqWBl99H1dH5LWizPa+0ImeeJq3t3cJjaeOWUAL4=",
        version = "v0.1.0-deprecated",
    )
    go_repository(
        name = "org_golang_x_xerrors",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/xerrors",
        sum = "h1:go1bK/D/BFZV2I8cIQd1NKEZ+0owSTG1fDTci4IqFcE=",
        version = "v0.0.0-20200804184101-5ec99f83aff1",
    )

    go_repository(
        name = "org_uber_go_goleak",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/goleak",
        sum = "h1:2K3zAYmnTNqV73imy9J1T3WC+gmCePx2hEGkimedGto=",
        version = "v1.3.0",
    )
