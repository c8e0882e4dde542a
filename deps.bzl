"""Go dependencies of rules_krm for WORKSPACE builds, generated from go.mod by dev/scripts/gazelle.sh."""

load("@bazel_gazelle//:deps.bzl", "go_repository")

def go_dependencies():
    """Declares the go_repository rules of the modules in go.mod."""
    go_repository(
        name = "cat_dario_mergo",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "dario.cat/mergo",
        sum = "h1:Ra4+bf83h2ztPIQYNP99R6m+Y7KfnARDfID+a+vLl4s=",
        version = "v1.0.1",
    )

    go_repository(
        name = "com_cyphar_go_pathrs",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "cyphar.com/go-pathrs",
        sum = "h1:SnX9FBvnoyn3lUs1dkMgZ52bAETpirNu3FTRh5HlRik=",
        version = "v0.2.5",
    )
    go_repository(
        name = "com_github_adalogics_go_fuzz_headers",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/AdaLogics/go-fuzz-headers",
        sum = "h1:bvDV9vkmnHYOMsOr4WLk+Vo07yKIzd94sVoIqshQ4bU=",
        version = "v0.0.0-20230811130428-ced1acdcaa24",
    )
    go_repository(
        name = "com_github_alecthomas_kingpin_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/alecthomas/kingpin/v2",
        sum = "h1:f48lwail6p8zpO1bC4TxtqACaGqHYA22qkHjHpqDjYY=",
        version = "v2.4.0",
    )
    go_repository(
        name = "com_github_alecthomas_units",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/alecthomas/units",
        sum = "h1:mimo19zliBX/vSQ6PWWSL9lK8qwHozUj03+zLoEB8O0=",
        version = "v0.0.0-20240927000941-0f3dac36c52b",
    )
    go_repository(
        name = "com_github_antihax_optional",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/antihax/optional",
        sum = "h1:xK2lYat7ZLaVVcIuj82J8kIro4V6kDe0AUDFboUCwcg=",
        version = "v1.0.0",
    )

    go_repository(
        name = "com_github_antlr4_go_antlr_v4",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/antlr4-go/antlr/v4",
        sum = "h1:SqQKkuVZ+zWkMMNkjy5FZe5mr5WURWnlpmOuzYWrPrQ=",
        version = "v4.13.1",
    )

    go_repository(
        name = "com_github_asaskevich_govalidator",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/asaskevich/govalidator",
        sum = "h1:DklsrG3dyBCFEj5IhUbnKptjxatkF07cF2ak3yi77so=",
        version = "v0.0.0-20230301143203-a9d515a09cc2",
    )
    go_repository(
        name = "com_github_azure_go_ansiterm",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/go-ansiterm",
        sum = "h1:udKWzYgxTojEKWjV8V+WSxDXJ4NFATAsZjh8iIbsQIg=",
        version = "v0.0.0-20250102033503-faa5f7b0171c",
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
        sum = "h1:njQAmjTv/YHRm/0Lfv9DXHFZ4MdT2IA/RKHTnqZkgDw=",
        version = "v0.0.0-20250930140053-2eb4fccefb52",
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
        name = "com_github_beorn7_perks",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/beorn7/perks",
        sum = "h1:VlbKKnNfV8bJzeqoa4cOKqO6bYr3WgKZxO8Z16+hsOM=",
        version = "v1.0.1",
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
        sum = "h1:X8jg9rRZmJd4yRy7ZeNDRnM+T3ZfHv15JiBJ/avrEXE=",
        version = "v4.9.1",
    )

    go_repository(
        name = "com_github_bshuster_repo_logrus_logstash_hook",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/bshuster-repo/logrus-logstash-hook",
        sum = "h1:o2FzZifLg+z/DN1OFmzTWzZZx/roaqt8IPZCIVco8r4=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_burntsushi_toml",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/BurntSushi/toml",
        sum = "h1:dRaEfpa2VI55EwlIW72hMRHdWouJeRF7TPYhI+AUQjk=",
        version = "v1.6.0",
    )

    go_repository(
        name = "com_github_cenkalti_backoff_v5",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cenkalti/backoff/v5",
        sum = "h1:ZN+IMa753KfX5hd8vVaMixjnqRZ3y8CuJKRKj1xcsSM=",
        version = "v5.0.3",
    )

    go_repository(
        name = "com_github_cespare_xxhash_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cespare/xxhash/v2",
        sum = "h1:UL815xU9SqsFlibzuggzjXhog7bL6oX9BbNZnL2UFvs=",
        version = "v2.3.0",
    )
    go_repository(
        name = "com_github_chai2010_gettext_go",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/chai2010/gettext-go",
        sum = "h1:1Lwwip6Q2QGsAdl/ZKPCwTe9fe0CjlUbqj5bFNSjIRk=",
        version = "v1.0.2",
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
        name = "com_github_cloudflare_circl",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cloudflare/circl",
        sum = "h1:9GPOhQGF9MCYUeXyMYlqTR6a5gTrgR/fBLXvUgtVcg8=",
        version = "v1.6.3",
    )
    go_repository(
        name = "com_github_cncf_xds_go",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cncf/xds/go",
        sum = "h1:aBangftG7EVZoUb69Os8IaYg++6uMOdKK83QtkkvJik=",
        version = "v0.0.0-20260202195803-dba9d589def2",
    )
    go_repository(
        name = "com_github_coreos_go_oidc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/coreos/go-oidc",
        sum = "h1:6W0vGJR3Tu0r0PwfmjOrRZSlfxeEln8dsejt3ZWIvwo=",
        version = "v2.5.0+incompatible",
    )

    go_repository(
        name = "com_github_coreos_go_semver",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/coreos/go-semver",
        sum = "h1:yi21YpKnrx1gt5R+la8n5WgS0kCrsPp33dmEyHReZr4=",
        version = "v0.3.1",
    )
    go_repository(
        name = "com_github_coreos_go_systemd_v22",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/coreos/go-systemd/v22",
        sum = "h1:LAEzFkke61DFROc7zNLX/WA2i5J8gYqe0rSj9KI28KA=",
        version = "v22.7.0",
    )
    go_repository(
        name = "com_github_cpuguy83_go_md2man_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cpuguy83/go-md2man/v2",
        sum = "h1:XJtiaUW6dEEqVuZiMTn1ldk455QWwEIsMIJlo5vtkx0=",
        version = "v2.0.6",
    )

    go_repository(
        name = "com_github_cyphar_filepath_securejoin",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cyphar/filepath-securejoin",
        sum = "h1:s0Y3ITPy6sQn5xt54DuYvTF8hu134ooYLUb58DX/HjE=",
        version = "v0.7.0",
    )
    go_repository(
        name = "com_github_data_dog_go_sqlmock",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/DATA-DOG/go-sqlmock",
        sum = "h1:OcvFkGmslmlZibjAjaHm3L//6LiuBgolP7OputlJIzU=",
        version = "v1.5.2",
    )

    go_repository(
        name = "com_github_davecgh_go_spew",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/davecgh/go-spew",
        sum = "h1:U9qPSI2PIWSS1VwoXQT9A3Wy9MM3WgvqSxFWenqJduM=",
        version = "v1.1.2-0.20180830191138-d8f796af33cc",
    )

    go_repository(
        name = "com_github_dgryski_go_rendezvous",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dgryski/go-rendezvous",
        sum = "h1:lO4WD4F/rVNCu3HqELle0jiPLLBs70cWOduZpkS1E78=",
        version = "v0.0.0-20200823014737-9f7001d12a5f",
    )
    go_repository(
        name = "com_github_distribution_distribution_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/distribution/distribution/v3",
        sum = "h1:KUbk7C8CfaLXy8kbf/hGq9cad/wCoLB6dbWH6DMbmX0=",
        version = "v3.1.1",
    )
    go_repository(
        name = "com_github_distribution_reference",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/distribution/reference",
        sum = "h1:0IXCQ5g4/QMHHkarYzh5l+u8T3t73zM5QvfrDyIgxBk=",
        version = "v0.6.0",
    )
    go_repository(
        name = "com_github_dlclark_regexp2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dlclark/regexp2",
        sum = "h1:G/nrcoOa7ZXlpoa/91N3X7mM3r8eIlMBBJZvsz/mxKI=",
        version = "v1.11.0",
    )
    go_repository(
        name = "com_github_docker_docker_credential_helpers",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/docker/docker-credential-helpers",
        sum = "h1:EFNN8DHvaiK8zVqFA2DT6BjXE0GzfLOZ38ggPTKePkY=",
        version = "v0.9.5",
    )
    go_repository(
        name = "com_github_docker_go_events",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/docker/go-events",
        sum = "h1:yOn6Ze6IbYI/KAw2lw/83ELYvZh6hvsygTVkD0dzMC4=",
        version = "v0.0.0-20250808211157-605354379745",
    )
    go_repository(
        name = "com_github_docker_go_metrics",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/docker/go-metrics",
        sum = "h1:AgB/0SvBxihN0X8OR4SjsblXkbMvalQ8cjmtKQ2rQV8=",
        version = "v0.0.1",
    )
    go_repository(
        name = "com_github_dustin_go_humanize",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dustin/go-humanize",
        sum = "h1:GzkhY7T5VNhEkwH0PVJgjz+fX1rhBrR7pRT3mDkpeCY=",
        version = "v1.0.1",
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
        sum = "h1:hbG2kr4RuFj222B6+7T83thSPqLjwBIfQawTkC++2HA=",
        version = "v0.14.0",
    )
    go_repository(
        name = "com_github_envoyproxy_go_control_plane_envoy",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/go-control-plane/envoy",
        sum = "h1:u3riX6BoYRfF4Dr7dwSOroNfdSbEPe9Yyl09/B6wBrQ=",
        version = "v1.37.0",
    )
    go_repository(
        name = "com_github_envoyproxy_go_control_plane_ratelimit",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/go-control-plane/ratelimit",
        sum = "h1:/G9QYbddjL25KvtKTv3an9lx6VBE2cnb8wp1vEGNYGI=",
        version = "v0.1.0",
    )
    go_repository(
        name = "com_github_envoyproxy_protoc_gen_validate",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/protoc-gen-validate",
        sum = "h1:MVQghNeW+LZcmXe7SY1V36Z+WFMDjpqGAGacLe2T0ds=",
        version = "v1.3.3",
    )

    go_repository(
        name = "com_github_evanphx_json_patch",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/evanphx/json-patch",
        sum = "h1:ixHHqfcGvxhWkniF1tWxBHA0yb4Z+d1UQi45df52xW8=",
        version = "v5.9.11+incompatible",
    )
    go_repository(
        name = "com_github_exponent_io_jsonpath",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/exponent-io/jsonpath",
        sum = "h1:Wl78ApPPB2Wvf/TIe2xdyJxTlb6obmF18d8QdkxNDu4=",
        version = "v0.0.0-20210407135951-1de76d718b3f",
    )

    go_repository(
        name = "com_github_fatih_color",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/fatih/color",
        sum = "h1:8LOYc1KYPPmyKMuN8QV2DNRWNbLo6LZ0iLs8+mlH53w=",
        version = "v1.13.0",
    )
    go_repository(
        name = "com_github_felixge_httpsnoop",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/felixge/httpsnoop",
        sum = "h1:NFTV2Zj1bL4mc9sqWACXbQFVBBg2W3GPvqp8/ESS2Wg=",
        version = "v1.0.4",
    )
    go_repository(
        name = "com_github_foxcpp_go_mockdns",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/foxcpp/go-mockdns",
        sum = "h1:omK3OrHRD1IWJz1FuFBCFquhXslXoF17OvBS6JPzZF0=",
        version = "v1.2.0",
    )
    go_repository(
        name = "com_github_frankban_quicktest",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/frankban/quicktest",
        sum = "h1:7Xjx+VpznH+oBnejlPUj8oUpdxnVs4f8XU8WnHkI4W8=",
        version = "v1.14.6",
    )
    go_repository(
        name = "com_github_fsnotify_fsnotify",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/fsnotify/fsnotify",
        sum = "h1:2Ml+OJNzbYCTzsxtv8vKSFD9PbJjmhYF14k/jKC7S9k=",
        version = "v1.9.0",
    )
    go_repository(
        name = "com_github_fxamacker_cbor_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/fxamacker/cbor/v2",
        sum = "h1:2rWm8B193Ll4VdjsJY28jxs70IdDsHRWgQYAI80+rMQ=",
        version = "v2.9.1",
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
        name = "com_github_go_gorp_gorp_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-gorp/gorp/v3",
        sum = "h1:ItKF/Vbuj31dmV4jxA1qblpSwkl9g1typ24xoe70IGs=",
        version = "v3.1.0",
    )
    go_repository(
        name = "com_github_go_jose_go_jose_v4",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-jose/go-jose/v4",
        sum = "h1:moDMcTHmvE6Groj34emNPLs/qtYXRVcd6S7NHbHz3kA=",
        version = "v4.1.4",
    )

    go_repository(
        name = "com_github_go_logr_logr",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-logr/logr",
        sum = "h1:CjnDlHq8ikf6E492q6eKboGOC0T8CDaOvkHCIg8idEI=",
        version = "v1.4.3",
    )
    go_repository(
        name = "com_github_go_logr_stdr",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-logr/stdr",
        sum = "h1:hSWxHoqTgW2S2qGc0LTAI563KZ5YKYRhT3MFKZMbjag=",
        version = "v1.2.2",
    )
    go_repository(
        name = "com_github_go_logr_zapr",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-logr/zapr",
        sum = "h1:XGdV8XW8zdwFiwOA2Dryh1gj2KRQyOOoNmBy4EplIcQ=",
        version = "v1.3.0",
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
        name = "com_github_gobwas_glob",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gobwas/glob",
        sum = "h1:A4xDbljILXROh+kObIiy5kIaPYD8e96x1tgBhUI5J+Y=",
        version = "v0.2.3",
    )

    go_repository(
        name = "com_github_gofrs_flock",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gofrs/flock",
        sum = "h1:95JolYOvGMqeH31+FC7D2+uULf6mG61mEZ/A8dRYMzw=",
        version = "v0.13.0",
    )
    go_repository(
        name = "com_github_golang_glog",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/glog",
        sum = "h1:DrW6hGnjIhtvhOIiAKT6Psh/Kd/ldepEa81DKeiRJ5I=",
        version = "v1.2.5",
    )

    go_repository(
        name = "com_github_golang_jwt_jwt_v5",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang-jwt/jwt/v5",
        sum = "h1:kYf81DTWFe7t+1VvL7eS+jKFVWaUnK9cB1qbwn63YCY=",
        version = "v5.3.1",
    )

    go_repository(
        name = "com_github_golang_protobuf",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/protobuf",
        sum = "h1:i7eJL8qZTpSEXOPTxNKhASYpMn+8e5Q6AdndVa1dWek=",
        version = "v1.5.4",
    )

    go_repository(
        name = "com_github_google_btree",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/btree",
        sum = "h1:CVpQJjYgC4VbzxeGVHfvZrv1ctoYCAI8vbl07Fcxlyg=",
        version = "v1.1.3",
    )
    go_repository(
        name = "com_github_google_cel_go",
        # cel-go ships BUILD files of its own (go_default_library targets); generate ours, as
        # gazelle's go_deps does under bzlmod.
        build_file_generation = "on",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/cel-go",
        sum = "h1:ZtDxkeiMmz0mxbKDYiNkE5Lk7V5edMRcaaDf2jX002k=",
        version = "v0.29.2",
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
        name = "com_github_google_gofuzz",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/gofuzz",
        sum = "h1:A8PeW59pxE9IoFRqBp37U+mSNaQoZ46F1f0f863XSXw=",
        version = "v1.0.0",
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
        name = "com_github_googlecloudplatform_opentelemetry_operations_go_detectors_gcp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/opentelemetry-operations-go/detectors/gcp",
        sum = "h1:rIkQfkCOVKc1OiRCNcSDD8ml5RJlZbH/Xsq7lbpynwc=",
        version = "v1.32.0",
    )

    go_repository(
        name = "com_github_gorilla_handlers",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gorilla/handlers",
        sum = "h1:cLTUSsNkgcwhgRqvCNmdbRWG0A3N4F+M2nWKdScwyEE=",
        version = "v1.5.2",
    )
    go_repository(
        name = "com_github_gorilla_mux",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gorilla/mux",
        sum = "h1:TuBL49tXwgrFYWhqrNgrUNEY92u81SPhu7sTdzQEiWY=",
        version = "v1.8.1",
    )
    go_repository(
        name = "com_github_gorilla_websocket",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gorilla/websocket",
        sum = "h1:JeSE6pjso5THxAzdVpqr6/geYxZytqFMBCOtn/ujyeo=",
        version = "v1.5.4-0.20250319132907-e064f32e3674",
    )
    go_repository(
        name = "com_github_gosuri_uitable",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gosuri/uitable",
        sum = "h1:IG2xLKRvErL3uhY6e1BylFzG+aJiwQviDDTfOKeKTpY=",
        version = "v0.0.4",
    )
    go_repository(
        name = "com_github_grpc_ecosystem_go_grpc_middleware_providers_prometheus",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus",
        sum = "h1:QGLs/O40yoNK9vmy4rhUGBVyMf1lISBGtXRpsu/Qu/o=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_grpc_ecosystem_go_grpc_middleware_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/grpc-ecosystem/go-grpc-middleware/v2",
        sum = "h1:B+8ClL/kCQkRiU82d9xajRPKYMrB7E0MbtzWVi1K4ns=",
        version = "v2.3.3",
    )
    go_repository(
        name = "com_github_grpc_ecosystem_grpc_gateway_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/grpc-ecosystem/grpc-gateway/v2",
        sum = "h1:5VipnvEpbqr2gA2VbM+nYVbkIF28c5ZQfqCBQ5g2xfk=",
        version = "v2.29.0",
    )
    go_repository(
        name = "com_github_hashicorp_errwrap",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/errwrap",
        sum = "h1:OxrOeh75EUXMY8TBjag2fzXGZ40LB6IKw45YeGUDY2I=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_hashicorp_go_multierror",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-multierror",
        sum = "h1:H5DkEtf6CXdFp0N0Em5UCwQpXMWke8IA0+lD48awMYo=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_hashicorp_golang_lru_arc_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/golang-lru/arc/v2",
        sum = "h1:l2zaLDubNhW4XO3LnliVj0GXO3+/CGNJAg1dcN2Fpfw=",
        version = "v2.0.5",
    )
    go_repository(
        name = "com_github_hashicorp_golang_lru_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/golang-lru/v2",
        sum = "h1:wW7h1TG88eUIJ2i69gaE3uNVtEPIagzhGvHgwfx2Vm4=",
        version = "v2.0.5",
    )
    go_repository(
        name = "com_github_huandu_xstrings",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/huandu/xstrings",
        sum = "h1:2ag3IFq9ZDANvthTwTiqSSZLjDc+BedvHPAp5tJy2TI=",
        version = "v1.5.0",
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
        name = "com_github_jmoiron_sqlx",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/jmoiron/sqlx",
        sum = "h1:1PLqN7S1UYp5t4SrVVnt4nUVNemrDAtxlulVe+Qgm3o=",
        version = "v1.4.0",
    )
    go_repository(
        name = "com_github_jonboulle_clockwork",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/jonboulle/clockwork",
        sum = "h1:Hyh9A8u51kptdkR+cqRpT1EebBwTn1oK9YfGYbdFz6I=",
        version = "v0.5.0",
    )
    go_repository(
        name = "com_github_jpillora_backoff",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/jpillora/backoff",
        sum = "h1:uvFg412JmmHBHw7iwprIxkPMI+sGQ4kzOWsMeHnm2EA=",
        version = "v1.0.0",
    )

    go_repository(
        name = "com_github_json_iterator_go",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/json-iterator/go",
        sum = "h1:PV8peI4a0ysnczrg+LtxykD8LfKY9ML6u2jnxaEnrnM=",
        version = "v1.1.12",
    )
    go_repository(
        name = "com_github_julienschmidt_httprouter",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/julienschmidt/httprouter",
        sum = "h1:U0609e9tgbseu3rBINet9P48AI/D3oJs4dN7jwJOQ1U=",
        version = "v1.3.0",
    )

    go_repository(
        name = "com_github_klauspost_compress",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/klauspost/compress",
        sum = "h1:sXLILfc9jV2QYWkzFOPWStmcUVH2RHEB1JCdY2oVvCQ=",
        version = "v1.19.0",
    )
    go_repository(
        name = "com_github_kr_pretty",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/kr/pretty",
        sum = "h1:flRD4NNwYAUpkphVc1HcthR4KEIFJ65n8Mw5qdRn3LE=",
        version = "v0.3.1",
    )
    go_repository(
        name = "com_github_kr_text",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/kr/text",
        sum = "h1:5Nx0Ya0ZqY2ygV366QzturHI13Jq95ApcVaJBhpS+AY=",
        version = "v0.2.0",
    )
    go_repository(
        name = "com_github_kylelemons_godebug",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/kylelemons/godebug",
        sum = "h1:RPNrshWIDI6G2gRW9EHilWtl7Z6Sb1BR0xunSBf0SNc=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_lann_builder",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/lann/builder",
        sum = "h1:SOEGU9fKiNWd/HOJuq6+3iTQz8KNCLtVX6idSoTLdUw=",
        version = "v0.0.0-20180802200727-47ae307949d0",
    )
    go_repository(
        name = "com_github_lann_ps",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/lann/ps",
        sum = "h1:P6pPBnrTSX3DEVR4fDembhRWSsG5rVo6hYhAB/ADZrk=",
        version = "v0.0.0-20150810152359-62de8c46ede0",
    )
    go_repository(
        name = "com_github_lib_pq",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/lib/pq",
        sum = "h1:tTWxr2YLKwIvK90ZXEw8GP7UFHtcbTtty8zsI+YjrfQ=",
        version = "v1.12.3",
    )
    go_repository(
        name = "com_github_liggitt_tabwriter",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/liggitt/tabwriter",
        sum = "h1:9TO3cAIGXtEhnIaL+V+BEER86oLrvS+kWobKpbJuye0=",
        version = "v0.0.0-20181228230101-89fcab3d43de",
    )

    go_repository(
        name = "com_github_makenowjust_heredoc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/MakeNowJust/heredoc",
        sum = "h1:cXCdzVdstXyiTqTvfqk9SDHpKNjxuom+DOlyEeQ4pzQ=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_masterminds_goutils",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Masterminds/goutils",
        sum = "h1:5nUrii3FMTL5diU80unEVvNevw1nH4+ZV4DSLVJLSYI=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_masterminds_semver_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Masterminds/semver/v3",
        sum = "h1:kQceYJfbupGfZOKZQg0kou0DgAKhzDg2NZPAwZ/2OOE=",
        version = "v3.5.0",
    )
    go_repository(
        name = "com_github_masterminds_sprig_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Masterminds/sprig/v3",
        sum = "h1:mQh0Yrg1XPo6vjYXgtf5OtijNAKJRNcTdOOGZe3tPhs=",
        version = "v3.3.0",
    )
    go_repository(
        name = "com_github_masterminds_squirrel",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Masterminds/squirrel",
        sum = "h1:uUcX/aBc8O7Fg9kaISIUsHXdKuqehiXAMQTYX8afzqM=",
        version = "v1.5.4",
    )
    go_repository(
        name = "com_github_masterminds_vcs",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Masterminds/vcs",
        sum = "h1:IIA2aBdXvfbIM+yl/eTnL4hb1XwdpvuQLglAix1gweE=",
        version = "v1.13.3",
    )
    go_repository(
        name = "com_github_mattn_go_colorable",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-colorable",
        sum = "h1:fFA4WZxdEF4tXPZVKMLwD8oUnCTTo08duU7wxecdEvA=",
        version = "v0.1.13",
    )
    go_repository(
        name = "com_github_mattn_go_isatty",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-isatty",
        sum = "h1:xfD0iDuEKnDkl03q4limB+vH+GxLEtL/jb4xVJSWWEY=",
        version = "v0.0.20",
    )

    go_repository(
        name = "com_github_mattn_go_runewidth",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-runewidth",
        sum = "h1:Lm995f3rfxdpd6TSmuVCHVb/QhupuXlYr8sCI/QdE+0=",
        version = "v0.0.9",
    )
    go_repository(
        name = "com_github_mattn_go_shellwords",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-shellwords",
        sum = "h1:yUKzIgsCnosndOASY6/enly1EAuaXeFSQ7cdyA3OuYg=",
        version = "v1.0.14",
    )

    go_repository(
        name = "com_github_miekg_dns",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/miekg/dns",
        sum = "h1:Jzi7ApEIzwEPLHWRcafCN9LZSBbqQpxjt/wpgvg7wcM=",
        version = "v1.1.57",
    )

    go_repository(
        name = "com_github_mitchellh_copystructure",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mitchellh/copystructure",
        sum = "h1:vpKXTN4ewci03Vljg/q9QvCGUDttBOGBIa15WveJJGw=",
        version = "v1.2.0",
    )
    go_repository(
        name = "com_github_mitchellh_go_wordwrap",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mitchellh/go-wordwrap",
        sum = "h1:TLuKupo69TCn6TQSyGxwI1EblZZEsQ0vMlAFQflz0v0=",
        version = "v1.0.1",
    )
    go_repository(
        name = "com_github_mitchellh_reflectwalk",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mitchellh/reflectwalk",
        sum = "h1:G2LzWKi524PWgd3mLHV8Y5k7s6XUvT0Gef6zxSIeXaQ=",
        version = "v1.0.2",
    )
    go_repository(
        name = "com_github_moby_spdystream",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/moby/spdystream",
        sum = "h1:9sNYeYZUcci9R6/w7KDaFWEWeV4LStVG78Mpyq/Zm/Y=",
        version = "v0.5.1",
    )
    go_repository(
        name = "com_github_moby_term",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/moby/term",
        sum = "h1:6qk3FJAFDs6i/q3W/pQ97SX192qKfZgGjCQqfCJkgzQ=",
        version = "v0.5.2",
    )
    go_repository(
        name = "com_github_modern_go_concurrent",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/modern-go/concurrent",
        sum = "h1:TRLaZ9cD/w8PVh93nsPXa1VrQ6jlwL5oN8l14QlcNfg=",
        version = "v0.0.0-20180306012644-bacd9c7ef1dd",
    )
    go_repository(
        name = "com_github_modern_go_reflect2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/modern-go/reflect2",
        sum = "h1:W5t00kpgFdJifH4BDsTlE89Zl93FEloxaWZfGcifgq8=",
        version = "v1.0.3-0.20250322232337-35a7c28c31ee",
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
        name = "com_github_mwitkow_go_conntrack",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mwitkow/go-conntrack",
        sum = "h1:KUppIJq7/+SVif2QVs3tOP0zanoHgBEVAwHxUSIzRqU=",
        version = "v0.0.0-20190716064945-2f068394615f",
    )

    go_repository(
        name = "com_github_mxk_go_flowrate",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mxk/go-flowrate",
        sum = "h1:y5//uYreIhSUg3J1GEMiLbxo1LJaP8RfCpH6pymGZus=",
        version = "v0.0.0-20140419014527-cca7078d478f",
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
        name = "com_github_opencontainers_go_digest",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/opencontainers/go-digest",
        sum = "h1:apOUWs51W5PlhuyGyz9FCeeBIOUDA/6nW8Oi/yOhh5U=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_opencontainers_image_spec",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/opencontainers/image-spec",
        sum = "h1:y0fUlFfIZhPF1W537XOLg0/fcx6zcHCJwooC2xJA040=",
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
        name = "com_github_peterbourgon_diskv",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/peterbourgon/diskv",
        sum = "h1:UBdAOUP5p4RWqPBg048CAvpKN+vxiaj6gdUUzhl4XmI=",
        version = "v2.0.1+incompatible",
    )
    go_repository(
        name = "com_github_pkg_errors",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pkg/errors",
        sum = "h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=",
        version = "v0.9.1",
    )
    go_repository(
        name = "com_github_planetscale_vtprotobuf",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/planetscale/vtprotobuf",
        sum = "h1:GFCKgmp0tecUJ0sJuv4pzYCqS9+RGSn52M3FUwPs+uo=",
        version = "v0.6.1-0.20240319094008-0393e58bdf10",
    )

    go_repository(
        name = "com_github_pmezard_go_difflib",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pmezard/go-difflib",
        sum = "h1:Jamvg5psRIccs7FGNTlIRMkT8wgtp5eCXdBlqhYGL6U=",
        version = "v1.0.1-0.20181226105442-5d4384ee4fb2",
    )
    go_repository(
        name = "com_github_pquerna_cachecontrol",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pquerna/cachecontrol",
        sum = "h1:yJMy84ti9h/+OEWa752kBTKv4XC30OtVVHYv/8cTqKc=",
        version = "v0.1.0",
    )

    go_repository(
        name = "com_github_prometheus_client_golang",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/client_golang",
        sum = "h1:5XStIklKuAtJSNpdD3s8XJj/Yv78IQmE1kbNk87JrAI=",
        version = "v1.24.0",
    )
    go_repository(
        name = "com_github_prometheus_client_model",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/client_model",
        sum = "h1:oBsgwpGs7iVziMvrGhE53c/GrLUsZdHnqNwqPLxwZyk=",
        version = "v0.6.2",
    )
    go_repository(
        name = "com_github_prometheus_common",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/common",
        sum = "h1:bcpru3tWPVnxGnETLgOV5jbp/JRXgYEyv65CuBLAMMI=",
        version = "v0.70.0",
    )
    go_repository(
        name = "com_github_prometheus_otlptranslator",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/otlptranslator",
        sum = "h1:s0LJW/iN9dkIH+EnhiD3BlkkP5QVIUVEoIwkU+A6qos=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_prometheus_procfs",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/procfs",
        sum = "h1:GljZCt+zSTS+NZq88cyQ1LjZ+RCHp3uVuabBWA5+OJI=",
        version = "v0.21.1",
    )
    go_repository(
        name = "com_github_protonmail_go_crypto",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ProtonMail/go-crypto",
        sum = "h1:9RfcZHqEQUvP8RzecWEUafnZVtEvrBVL9BiF67IQOfM=",
        version = "v1.4.1",
    )
    go_repository(
        name = "com_github_redis_go_redis_extra_rediscmd_v9",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/redis/go-redis/extra/rediscmd/v9",
        sum = "h1:EaDatTxkdHG+U3Bk4EUr+DZ7fOGwTfezUiUJMaIcaho=",
        version = "v9.0.5",
    )
    go_repository(
        name = "com_github_redis_go_redis_extra_redisotel_v9",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/redis/go-redis/extra/redisotel/v9",
        sum = "h1:EfpWLLCyXw8PSM2/XNJLjI3Pb27yVE+gIAfeqp8LUCc=",
        version = "v9.0.5",
    )
    go_repository(
        name = "com_github_redis_go_redis_v9",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/redis/go-redis/v9",
        sum = "h1:YpPyAayJV+XErNsatSElgRZZVCwXX9QzkKYNvO7x0wM=",
        version = "v9.7.3",
    )
    go_repository(
        name = "com_github_rogpeppe_fastuuid",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rogpeppe/fastuuid",
        sum = "h1:Ppwyp6VYCF1nvBTXL3trRso7mXMlRrw9ooo375wvi2s=",
        version = "v1.2.0",
    )

    go_repository(
        name = "com_github_rogpeppe_go_internal",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rogpeppe/go-internal",
        sum = "h1:UQB4HGPB6osV0SQTLymcB4TgvyWu6ZyliaW0tI/otEQ=",
        version = "v1.14.1",
    )
    go_repository(
        name = "com_github_rubenv_sql_migrate",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rubenv/sql-migrate",
        sum = "h1:EPNwCvjAowHI3TnZ+4fQu3a915OpnQoPAjTXCGOy2U0=",
        version = "v1.8.1",
    )

    go_repository(
        name = "com_github_russross_blackfriday_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/russross/blackfriday/v2",
        sum = "h1:JIOH55/0cWyOuilr9/qlrm0BSXldqnqwMsf35Ld67mk=",
        version = "v2.1.0",
    )

    go_repository(
        name = "com_github_santhosh_tekuri_jsonschema_v6",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/santhosh-tekuri/jsonschema/v6",
        sum = "h1:1EYB5IzjZawrrnELUi78f9fPu57HuXjmddZPjrls/28=",
        version = "v6.0.3",
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
        name = "com_github_shopspring_decimal",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/shopspring/decimal",
        sum = "h1:bxl37RwXBklmTi0C79JfXCEBD1cqqHt0bbgBAGFp81k=",
        version = "v1.4.0",
    )
    go_repository(
        name = "com_github_sirupsen_logrus",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sirupsen/logrus",
        sum = "h1:TsZE7l11zFCLZnZ+teH4Umoq5BhEIfIzfRDZ1Uzql2w=",
        version = "v1.9.4",
    )
    go_repository(
        name = "com_github_soheilhy_cmux",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/soheilhy/cmux",
        sum = "h1:jjzc5WVemNEDTLwv9tlmemhC73tI08BNOIGwBOo10Js=",
        version = "v0.1.5",
    )
    go_repository(
        name = "com_github_spf13_cast",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/cast",
        sum = "h1:ntdiHjuueXFgm5nzDRdOS4yfT43P5Fnud6DH50rz/7w=",
        version = "v1.7.0",
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
        name = "com_github_spiffe_go_spiffe_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spiffe/go-spiffe/v2",
        sum = "h1:l+DolpxNWYgruGQVV0xsfeya3CsC7m8iBzDnMpsbLuo=",
        version = "v2.6.0",
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
        name = "com_github_tmc_grpc_websocket_proxy",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/tmc/grpc-websocket-proxy",
        sum = "h1:6fotK7otjonDflCTK0BCfls4SPy3NcCVb5dqqmbRknE=",
        version = "v0.0.0-20220101234140-673ab2c3ae75",
    )
    go_repository(
        name = "com_github_x448_float16",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/x448/float16",
        sum = "h1:qLwI1I70+NjRFUR3zs1JPUCgaCXSh3SW62uAKT1mSBM=",
        version = "v0.8.4",
    )
    go_repository(
        name = "com_github_xhit_go_str2duration_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xhit/go-str2duration/v2",
        sum = "h1:lxklc02Drh6ynqX+DdPyp5pCKLUQpRT8bp8Ydu2Bstc=",
        version = "v2.1.0",
    )

    go_repository(
        name = "com_github_xiang90_probing",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xiang90/probing",
        sum = "h1:S2dVYn90KE98chqDkyE9Z4N61UnQd+KOfgp5Iu53llk=",
        version = "v0.0.0-20221125231312-a49e3df8f510",
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
        name = "com_google_cloud_go_compute_metadata",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/compute/metadata",
        sum = "h1:pDUj4QMoPejqq20dK0Pg2N4yG9zIkYGdBtwLoEkH9Zs=",
        version = "v0.9.0",
    )
    go_repository(
        name = "dev_cel_expr",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "cel.dev/expr",
        sum = "h1:1KrZg61W6TWSxuNZ37Xy49ps13NUovb66QLprthtwi4=",
        version = "v0.25.1",
    )

    go_repository(
        name = "in_gopkg_check_v1",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/check.v1",
        sum = "h1:Hei/4ADfdWqJk1ZMxUNpqntNwaWcugrBjAiHlqqRiVk=",
        version = "v1.0.0-20201130134442-10cb98267c6c",
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
        name = "in_gopkg_go_jose_go_jose_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/go-jose/go-jose.v2",
        sum = "h1:nt80fvSDlhKWQgSWyHyy5CfmlQr+asih51R8PTWNKKs=",
        version = "v2.6.3",
    )

    go_repository(
        name = "in_gopkg_inf_v0",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/inf.v0",
        sum = "h1:73M5CoZyi3ZLMOyDlQh031Cx6N9NDJ2Vvfl76EDAgDc=",
        version = "v0.9.1",
    )
    go_repository(
        name = "in_gopkg_natefinch_lumberjack_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/natefinch/lumberjack.v2",
        sum = "h1:bBRl1b0OH9s/DuPhuXpNl+VtCaJXFZ5/uEFST95x9zc=",
        version = "v2.2.1",
    )
    go_repository(
        name = "in_gopkg_yaml_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/yaml.v2",
        sum = "h1:D8xgwECY7CYvx+Y2n4sBz93Jn9JRvxdiyyo8CTfuKaY=",
        version = "v2.4.0",
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
        name = "io_etcd_go_bbolt",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/bbolt",
        sum = "h1:S7GAl7Fxv12yohbwFfIbQCGDWbQbtDGPET4P/bD4lxU=",
        version = "v1.5.0",
    )
    go_repository(
        name = "io_etcd_go_etcd_api_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/etcd/api/v3",
        sum = "h1:WZlGK7pRtYGDB8ti8wkrQ5D2oWGMbtNL9VA5e+vF2Fg=",
        version = "v3.7.0",
    )
    go_repository(
        name = "io_etcd_go_etcd_client_pkg_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/etcd/client/pkg/v3",
        sum = "h1:sW9njJzS3vXKcAJjjLQ4nk+avNUJ12Bcijcx8ehUskE=",
        version = "v3.7.0",
    )
    go_repository(
        name = "io_etcd_go_etcd_client_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/etcd/client/v3",
        sum = "h1:5MHO37VbPB87VRPKUXEcicjeQWiTSjpPv3Ume8xPx20=",
        version = "v3.7.0",
    )
    go_repository(
        name = "io_etcd_go_etcd_pkg_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/etcd/pkg/v3",
        sum = "h1:aUBHGzXnYL2m3AlZfKp0ZhHQLVZIKfu9QsIlYdr+mxc=",
        version = "v3.7.0",
    )
    go_repository(
        name = "io_etcd_go_etcd_server_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/etcd/server/v3",
        sum = "h1:ScdUdN8ljuimp0lZaNq0otLMrHcFSFT+dQyT1j7JSFo=",
        version = "v3.7.0",
    )
    go_repository(
        name = "io_etcd_go_raft_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/raft/v3",
        sum = "h1:BGzlwx07bLv8PW6OU5HObuz1y4hlPZUXA07pM1mPUh4=",
        version = "v3.7.0",
    )

    go_repository(
        name = "io_k8s_api",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/api",
        sum = "h1:Z//Vj9N7RA/yS2sDmxyeo7h+RR4zbUrd2vrd3Z0TbB4=",
        version = "v0.37.0",
    )
    go_repository(
        name = "io_k8s_apiextensions_apiserver",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/apiextensions-apiserver",
        sum = "h1:zRMQ3+/LIE5oZ0tVvXwYHC+dIkSP5cjNWju7AZU1LOI=",
        version = "v0.37.0",
    )
    go_repository(
        name = "io_k8s_apimachinery",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/apimachinery",
        sum = "h1:Np2AbDtf8x6RDHiD8T9LbKJ9gaegeVNa8yNm5FuGKm0=",
        version = "v0.37.0",
    )
    go_repository(
        name = "io_k8s_apiserver",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/apiserver",
        sum = "h1:TXg7OxsOWrAH8J4Zi/gBAZuMw1Dfdd+6cca2h4qjRqo=",
        version = "v0.37.0",
    )
    go_repository(
        name = "io_k8s_cli_runtime",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/cli-runtime",
        sum = "h1:U3XakUeirBQJMz5688r04z74SIHSE7V5SIZ6Ho5JyBM=",
        version = "v0.37.0",
    )
    go_repository(
        name = "io_k8s_client_go",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/client-go",
        sum = "h1:nsN31fy8wBySuZ+QRnKmrjRSQLOG2rvoGN0tKd12zhQ=",
        version = "v0.37.0",
    )
    go_repository(
        name = "io_k8s_code_generator",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/code-generator",
        sum = "h1:AC915wukzlVHHODAQYxvQ25WKibPh95faJ2kxf8dzuo=",
        version = "v0.37.0",
    )
    go_repository(
        name = "io_k8s_component_base",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/component-base",
        sum = "h1:3SdSa4+itMdFTDFTeR8CxKGmSTSMXFlKL4ky8OqjguM=",
        version = "v0.37.0",
    )

    go_repository(
        name = "io_k8s_gengo_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/gengo/v2",
        sum = "h1:3L6PNkMLXkU/pz3jWzaaIUz0Rs2V9h+5O51AeRC7poc=",
        version = "v2.0.0-20260408192533-25e2208e0dc3",
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
        name = "io_k8s_kms",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/kms",
        sum = "h1:WDW3pSc5yFB1Od4YXXL3i5oK+vXI2v++LAV82+Ks1Z0=",
        version = "v0.37.0",
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
        name = "io_k8s_kubectl",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/kubectl",
        sum = "h1:cici6hiofx93ASldmprDmZF55SfhVt4o3HniltVLjTc=",
        version = "v0.37.0",
    )

    go_repository(
        name = "io_k8s_sigs_apiserver_network_proxy_konnectivity_client",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/apiserver-network-proxy/konnectivity-client",
        sum = "h1:/YpDJ4vReG7ZmzSpBGxduXgywWkJU9zHubgJG03MT+Y=",
        version = "v0.36.0",
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
        sum = "h1:qdOxHwrl2Kaag1aQEarlYcOA9vSyGCp3CIki3aW8c4Q=",
        version = "v6.4.2",
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
        name = "io_k8s_streaming",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/streaming",
        sum = "h1:iPBUZLZiKt5bV+lxJurASMOV07VuBhNpiwJt2//AWrM=",
        version = "v0.37.0",
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
        name = "io_opentelemetry_go_auto_sdk",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/auto/sdk",
        sum = "h1:jXsnJ4Lmnqd11kwkBV2LgLoFMZKizbCi5fNZ/ipaZ64=",
        version = "v1.2.1",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_bridges_prometheus",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/bridges/prometheus",
        sum = "h1:dkBzNEAIKADEaFnuESzcXvpd09vxvDZsOjx11gjUqLk=",
        version = "v0.67.0",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_detectors_gcp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/detectors/gcp",
        sum = "h1:62yY3dT7/ShwOxzA0RsKRgshBmfElKI4d/Myu2OxDFU=",
        version = "v1.43.0",
    )

    go_repository(
        name = "io_opentelemetry_go_contrib_exporters_autoexport",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/exporters/autoexport",
        sum = "h1:4fnRcNpc6YFtG3zsFw9achKn3XgmxPxuMuqIL5rE8e8=",
        version = "v0.67.0",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_instrumentation_google_golang_org_grpc_otelgrpc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc",
        sum = "h1:0Qx7VGBacMm9ZENQ7TnNObTYI4ShC+lHI16seduaxZo=",
        version = "v0.68.0",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_instrumentation_net_http_otelhttp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp",
        sum = "h1:8tvICD4vSTOOsNrsI4Ljf6C+6UKvpTEH5XY3JMoyPoo=",
        version = "v0.69.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel",
        sum = "h1:JjwHmHpA4iZ3wBxluu2fbbE7j4kqlE8jXyAyPXH7HqU=",
        version = "v1.44.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlplog_otlploggrpc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc",
        sum = "h1:Dn8rkudDzY6KV9dr/D/bTUuWgqDf9xe0rr4G2elrn0Y=",
        version = "v0.19.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlplog_otlploghttp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp",
        sum = "h1:HIBTQ3VO5aupLKjC90JgMqpezVXwFuq6Ryjn0/izoag=",
        version = "v0.19.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlpmetric_otlpmetricgrpc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc",
        sum = "h1:8UQVDcZxOJLtX6gxtDt3vY2WTgvZqMQRzjsqiIHQdkc=",
        version = "v1.43.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlpmetric_otlpmetrichttp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp",
        sum = "h1:w1K+pCJoPpQifuVpsKamUdn9U0zM3xUziVOqsGksUrY=",
        version = "v1.43.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlptrace",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlptrace",
        sum = "h1:4YsVu3B8+3qtWYYrsUYgn0OG78pN0rnNPRGX4SbokQI=",
        version = "v1.44.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlptrace_otlptracegrpc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc",
        sum = "h1:qazEJlUOQzhCpzQpFETGby7EdqjI1wsd0W+6Gg1SCTU=",
        version = "v1.44.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlptrace_otlptracehttp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp",
        sum = "h1:3iZJKlCZufyRzPzlQhUIWVmfltrXuGyfjREgGP3UUjc=",
        version = "v1.43.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_prometheus",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/prometheus",
        sum = "h1:jOveH/b4lU9HT7y+Gfamf18BqlOuz2PWEvs8yM7Q6XE=",
        version = "v0.65.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_stdout_stdoutlog",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/stdout/stdoutlog",
        sum = "h1:GJkybS+crDMdExT/BUNCEgfrmfboztcS6PhvSo88HKM=",
        version = "v0.19.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_stdout_stdoutmetric",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/stdout/stdoutmetric",
        sum = "h1:TC+BewnDpeiAmcscXbGMfxkO+mwYUwE/VySwvw88PfA=",
        version = "v1.43.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_stdout_stdouttrace",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/stdout/stdouttrace",
        sum = "h1:mS47AX77OtFfKG4vtp+84kuGSFZHTyxtXIN269vChY0=",
        version = "v1.43.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_log",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/log",
        sum = "h1:KUZs/GOsw79TBBMfDWsXS+KZ4g2Ckzksd1ymzsIEbo4=",
        version = "v0.19.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_metric",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/metric",
        sum = "h1:1w0gILTcHdr3YI+ixLyjemwrVnsMURbTZFrSYCdDdmc=",
        version = "v1.44.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_sdk",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/sdk",
        sum = "h1:nHYwb9lK+fJPU/dnT6s7W7Z8itMWyqrnVfbheVYrZ58=",
        version = "v1.44.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_sdk_log",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/sdk/log",
        sum = "h1:scYVLqT22D2gqXItnWiocLUKGH9yvkkeql5dBDiXyko=",
        version = "v0.19.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_sdk_metric",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/sdk/metric",
        sum = "h1:3LlKgI+VjbVsjNRFZJZAJ30WjXC5VkNRks6si09iEfI=",
        version = "v1.44.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_trace",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/trace",
        sum = "h1:jxF5CsGYCe74MCRx2X4g7WsY/VBKRqqpNvXlX/6gtIk=",
        version = "v1.44.0",
    )
    go_repository(
        name = "io_opentelemetry_go_proto_otlp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/proto/otlp",
        sum = "h1:IQRWgT5srOCYfiWnpqUYz9CVmbO8bFmKcwYxpuCSL2g=",
        version = "v1.10.0",
    )
    go_repository(
        name = "land_oras_oras_go_v2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "oras.land/oras-go/v2",
        sum = "h1:N04RXngAp1LJKTG6ifz3xHPipasEkWr+hFmInja5YKo=",
        version = "v2.6.2",
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
        name = "org_golang_google_genproto_googleapis_api",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/genproto/googleapis/api",
        sum = "h1:Kjn0N0tCrDgiAFW+lGO4JZ3ck44CehvJQMAwj9QF0G8=",
        version = "v0.0.0-20260526163538-3dc84a4a5aaa",
    )
    go_repository(
        name = "org_golang_google_genproto_googleapis_rpc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/genproto/googleapis/rpc",
        sum = "h1:mZHHdPZl0dbGHCflZgAq/Q468DWVFcU2whhB2KAo8fk=",
        version = "v0.0.0-20260526163538-3dc84a4a5aaa",
    )
    go_repository(
        name = "org_golang_google_grpc",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/grpc",
        sum = "h1:NnAxzGRA0677vCa4BUkOAnO5+FfQqVl9iUXeD0IqcGE=",
        version = "v1.82.1",
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
        sum = "h1:+KWHjbgOaAQ66dh/YlkZKHlz9ZUlq61AFirAR9ntP8M=",
        version = "v0.55.0",
    )
    go_repository(
        name = "org_golang_x_exp",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/exp",
        sum = "h1:W3F4c+6OLc6H2lb//N1q4WpJkhzJCK5J6kUi1NTVXfM=",
        version = "v0.0.0-20260410095643-746e56fc9e2f",
    )

    go_repository(
        name = "org_golang_x_mod",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/mod",
        sum = "h1:MECBjubtXD7yj4HrhIUcywNaGeNVUdfVnxmPajOk4yk=",
        version = "v0.38.0",
    )
    go_repository(
        name = "org_golang_x_net",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/net",
        sum = "h1:K5+3DljvIuDG9/Jv9rvyMywYNFCQ9RSUY6OOTTkT+tE=",
        version = "v0.57.0",
    )
    go_repository(
        name = "org_golang_x_oauth2",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/oauth2",
        sum = "h1:peZ/1z27fi9hUOFCAZaHyrpWG5lwe0RJEEEeH0ThlIs=",
        version = "v0.36.0",
    )

    go_repository(
        name = "org_golang_x_sync",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/sync",
        sum = "h1:SZjpbeLmrCk4xhRSZFNZW5gFUeCeFgjekvI/+gfScek=",
        version = "v0.22.0",
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
        sum = "h1:NwWyBmoJCbfTHpxrWoZ9C6/VxOf7ic219I8xZZFdrf0=",
        version = "v0.45.0",
    )
    go_repository(
        name = "org_golang_x_text",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/text",
        sum = "h1:vz/seA0lnX87Othu2f/0L24RcgrXD9/YFTSuGjj3rH8=",
        version = "v0.41.0",
    )
    go_repository(
        name = "org_golang_x_time",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/time",
        sum = "h1:bbrp8t3bGUeFOx08pvsMYRTCVSMk89u4tKbNOZbp88U=",
        version = "v0.15.0",
    )

    go_repository(
        name = "org_golang_x_tools",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools",
        sum = "h1:3+hClM1aLL5mjMKm5ovokw9epgRXPuu2tILgismM6RE=",
        version = "v0.48.0",
    )
    go_repository(
        name = "org_golang_x_tools_go_expect",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools/go/expect",
        sum = "h1:jpBZDwmgPhXsKZC6WhL20P4b/wmnpsEAGHaNy0n/rJM=",
        version = "v0.1.1-deprecated",
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
        name = "org_gonum_v1_gonum",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "gonum.org/v1/gonum",
        sum = "h1:VbpOemQlsSMrYmn7T2OUvQ4dqxQXU+ouZFQsZOx50z4=",
        version = "v0.17.0",
    )

    go_repository(
        name = "org_uber_go_goleak",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/goleak",
        sum = "h1:2K3zAYmnTNqV73imy9J1T3WC+gmCePx2hEGkimedGto=",
        version = "v1.3.0",
    )
    go_repository(
        name = "org_uber_go_multierr",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/multierr",
        sum = "h1:blXXJkSxSSfBVBlC76pxqeO+LN3aDfLQo+309xJstO0=",
        version = "v1.11.0",
    )
    go_repository(
        name = "org_uber_go_zap",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/zap",
        sum = "h1:08RqriUEv8+ArZRYSTXy1LeBScaMpVSTBhCeaZYfMYc=",
        version = "v1.27.1",
    )
    go_repository(
        name = "sh_helm_helm_v3",
        build_config = "@rules_krm//:WORKSPACE",
        build_file_proto_mode = "disable_global",
        importpath = "helm.sh/helm/v3",
        sum = "h1:n1if5iQgHYsujPAcO5oonH/KiSNUmqmUF0iGVjSF3AU=",
        version = "v3.22.0",
    )
